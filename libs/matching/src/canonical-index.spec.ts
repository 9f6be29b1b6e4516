import fc from 'fast-check';
import type { NormalizedProviderRecord } from '@jobs/contracts';
import { CanonicalIndex, recordToMatch } from './canonical-index.js';
import { blockingKeys, featuresOf, fieldsOfRecord } from './features.js';
import { MATCH_THRESHOLD, decide, scoreCandidate, type CandidateJob } from './score.js';

const DESCRIPTION =
  'At Apexstack, our operations team is looking for a Senior ' +
  'Supply Chain Analyst in Turin. In this role you will report ' +
  'on operational metrics and coordinate with suppliers and ' +
  'internal teams. ' +
  'We are looking for someone with 5+ years of experience in ' +
  'vendor management and a good working knowledge of process ' +
  'improvement. You will work from our Turin office, with up to ' +
  'two days a week from home. ' +
  'We support you with relocation and visa sponsorship where needed.';
const OTHER_DESCRIPTION =
  'Apexstack is hiring a Senior Supply Chain Analyst to join ' +
  'the logistics team in Turin. In this role you will keep ' +
  'day-to-day operations running smoothly and improve processes ' +
  'and remove bottlenecks. ' +
  'We are looking for someone with 5+ years of experience in ' +
  'spreadsheets and a good working knowledge of project ' +
  'management. This role is based in our Turin office. ' +
  'Expect a friendly team, a yearly offsite and a budget for conferences.';
const SNIPPET = `${DESCRIPTION.slice(0, 150).replace(/\s+\S*$/, '')}…`;
const POSTED = '2026-11-03T09:14:27.000Z';

let sequence = 0;
/** provider_a-like record of one opening; overrides describe how another provider shows it. */
function record(overrides: Partial<NormalizedProviderRecord> = {}): NormalizedProviderRecord {
  return {
    provider: 'provider_a',
    provider_job_id: `id-${sequence++}`,
    url: null,
    title: 'Senior Supply Chain Analyst',
    company: { name: 'Apexstack S.p.A.', domain: 'apexstack.com' },
    location: { city: 'Turin', region: 'Piedmont', country_code: 'IT', remote: false },
    employment_type: 'full_time',
    seniority: 'senior',
    job_family: null,
    salary: { min: 42000, max: 51000, currency: 'EUR', period: 'year', origin: 'declared' },
    description: DESCRIPTION,
    apply_url: 'https://jobs.apexstack.com/o/senior-supply-chain-analyst?id=be967d',
    posted_at: POSTED,
    seen_at: '2026-11-20T12:00:00.000Z',
    ...overrides,
  };
}

/**
 * How provider_e shows the same opening: no domain, a spelling of the name, lower-case title, a snippet, no seniority.
 */
const providerE = (o: Partial<NormalizedProviderRecord> = {}): NormalizedProviderRecord =>
  record({
    provider: 'provider_e',
    company: { name: 'APEXSTACK, Inc.', domain: null },
    title: 'senior supply chain analyst',
    employment_type: null,
    seniority: null,
    salary: null,
    description: SNIPPET,
    lossy: ['title', 'description'],
    ...o,
  });

function pairScore(a: NormalizedProviderRecord, b: NormalizedProviderRecord, explain?: Record<string, number>): number {
  const ra = recordToMatch(a);
  const rb = recordToMatch(b);
  const job: CandidateJob = {
    id: 'job',
    features: rb.features,
    keys: new Set(rb.keys),
    providers: new Set([b.provider]),
  };
  return scoreCandidate(ra, job, explain);
}

const sameOpening = (a: NormalizedProviderRecord, b: NormalizedProviderRecord): boolean => {
  const index = new CanonicalIndex();
  return index.merge(a).jobId === index.merge(b).jobId;
};

describe('blockingKeys', () => {
  it('gives a name-only record a key its domain-bearing twin also has', () => {
    const withDomain = blockingKeys(recordToMatch(record()).features);
    const nameOnly = blockingKeys(recordToMatch(providerE({ apply_url: null })).features);
    expect(nameOnly.some((k) => withDomain.includes(k))).toBe(true);
    expect(nameOnly.every((k) => !k.startsWith('d:'))).toBe(true);
  });

  it('keys the apply URL without its tracking parameters', () => {
    const a = blockingKeys(
      recordToMatch(record({ apply_url: 'https://jobs.apexstack.com/o/x?id=1&utm_source=e' })).features,
    );
    const b = blockingKeys(recordToMatch(record({ apply_url: 'http://www.jobs.apexstack.com/o/x/?id=1' })).features);
    expect(a[0]).toBe('u:jobs.apexstack.com/o/x?id=1');
    expect(a[0]).toBe(b[0]);
  });
});

describe('the same opening seen by different providers is merged', () => {
  it.each<[string, Partial<NormalizedProviderRecord>]>([
    [
      'provider_b: "(m/w/d)", HTML-cleaned text, date only',
      {
        provider: 'provider_b',
        title: 'Senior Supply Chain Analyst (m/w/d)',
        seniority: null,
        posted_at: '2026-11-03T00:00:00.000Z',
        description: DESCRIPTION.replace(/\. /g, '.\n'),
      },
    ],
    [
      'provider_f: "SR." upper-case headline, unknown remote',
      {
        provider: 'provider_f',
        title: 'SR. SUPPLY CHAIN ANALYST',
        location: { city: 'Turin', region: 'Piedmont', country_code: 'IT', remote: null },
      },
    ],
    [
      'provider_c: no description, estimated salary that disagrees',
      {
        provider: 'provider_c',
        description: null,
        salary: { min: 90000, max: 99000, currency: 'EUR', period: 'year', origin: 'inferred' },
      },
    ],
    [
      'provider_d: extra headings in the body',
      {
        provider: 'provider_d',
        description: `About the role\n\n${DESCRIPTION.replace('We are looking', 'What we offer\n\n- We are looking')}`,
      },
    ],
    ['provider_a: lossy level (lead shown as senior)', { provider: 'provider_c', seniority: 'lead' }],
    [
      'a later description update the lagging provider does not show yet',
      { provider: 'provider_d', description: `${DESCRIPTION} This role now includes a yearly bonus.` },
    ],
    [
      'a raised salary that still overlaps',
      {
        provider: 'own_index',
        salary: { min: 46000, max: 56000, currency: 'EUR', period: 'year', origin: 'declared' },
      },
    ],
    [
      'a tracking-wrapped apply URL',
      {
        provider: 'provider_b',
        apply_url: 'https://jobs.apexstack.com/o/senior-supply-chain-analyst?id=be967d&utm_source=board',
      },
    ],
  ])('%s', (_, overrides) => {
    expect(sameOpening(record(), record(overrides))).toBe(true);
  });

  it('provider_e (name only, snippet, no seniority) meets its domain-bearing twin', () => {
    expect(sameOpening(record(), providerE())).toBe(true);
    expect(sameOpening(providerE(), record())).toBe(true);
  });

  it('provider_e meets its twin even without apply URLs, by name, title, place and posting time', () => {
    expect(sameOpening(record({ apply_url: null }), providerE({ apply_url: null }))).toBe(true);
  });

  it('provider_c (no description) meets provider_e (snippet only) without apply URLs', () => {
    expect(
      sameOpening(
        record({ provider: 'provider_c', description: null, apply_url: null }),
        providerE({ apply_url: null }),
      ),
    ).toBe(true);
  });
});

describe('different openings that look alike stay apart', () => {
  it.each<[string, Partial<NormalizedProviderRecord>]>([
    [
      'one ad posted for two cities at once',
      {
        location: { city: 'Milan', region: 'Lombardy', country_code: 'IT', remote: false },
        description: DESCRIPTION.replace(/Turin/g, 'Milan'),
        apply_url: null,
      },
    ],
    [
      'another apply URL, posted days earlier',
      {
        apply_url: 'https://jobs.apexstack.com/o/senior-supply-chain-analyst?id=0c41aa',
        posted_at: '2026-10-30T08:00:00.000Z',
      },
    ],
    [
      'same company and title, another domain',
      { company: { name: 'Apexstack', domain: 'apexstack.it' }, apply_url: null },
    ],
    [
      'another country',
      { location: { city: 'Turin', region: 'Piedmont', country_code: 'FR', remote: false }, apply_url: null },
    ],
  ])('%s', (_, overrides) => {
    expect(sameOpening(record({ provider: 'provider_b' }), record(overrides))).toBe(false);
  });

  it('same company, title and city, posted weeks apart, other description (no apply URLs)', () => {
    const a = record({ apply_url: null });
    const b = record({
      provider: 'provider_b',
      apply_url: null,
      posted_at: '2026-10-12T16:40:00.000Z',
      description: OTHER_DESCRIPTION,
      salary: null,
    });
    expect(sameOpening(a, b)).toBe(false);
  });

  it('same company, title, city and day, but a different description and contract type (no apply URLs)', () => {
    const a = record({ apply_url: null });
    const b = record({
      provider: 'provider_b',
      apply_url: null,
      description: OTHER_DESCRIPTION,
      employment_type: 'contract',
      posted_at: '2026-11-03T00:00:00.000Z',
    });
    expect(sameOpening(a, b)).toBe(false);
  });

  it('two listings of one provider are two openings unless their apply URL says otherwise', () => {
    const a = record({ apply_url: null });
    const b = record({ apply_url: null, posted_at: '2026-11-03T15:00:00.000Z' });
    expect(sameOpening(a, b)).toBe(false);
    // a re-listing under a new id with the same apply URL is the same opening
    expect(sameOpening(record(), record())).toBe(true);
  });

  it('a junior and a senior opening with one title are not merged on weak evidence', () => {
    const a = record({ apply_url: null, description: null, posted_at: null });
    const b = record({
      provider: 'provider_b',
      apply_url: null,
      description: null,
      posted_at: null,
      seniority: 'junior',
      city: undefined,
    } as Partial<NormalizedProviderRecord>);
    const explain: Record<string, number> = {};
    pairScore(b, a, explain);
    expect(explain['seniority']).toBeLessThan(0);
  });
});

describe('scoreCandidate', () => {
  it('vetoes different company domains and countries', () => {
    expect(pairScore(record(), record({ company: { name: 'Apexstack', domain: 'other.com' } }))).toBe(-Infinity);
    expect(
      pairScore(record(), record({ location: { city: 'Turin', region: null, country_code: 'DE', remote: false } })),
    ).toBe(-Infinity);
  });

  it('explains each contribution', () => {
    const explain: Record<string, number> = {};
    const score = pairScore(record({ provider: 'provider_b' }), record(), explain);
    expect(explain).toMatchObject({ applyUrl: 5, title: 1.5, city: 1, salary: 0.5, description: 2, posted: 2 });
    expect(score).toBe(Object.values(explain).reduce((a, b) => a + b, 0));
  });

  it('counts date-only postings by day', () => {
    const explain: Record<string, number> = {};
    pairScore(record({ posted_at: '2026-11-03T00:00:00.000Z' }), record({ provider: 'provider_b' }), explain);
    expect(explain['posted']).toBe(1);
    pairScore(record({ posted_at: '2026-11-06T00:00:00.000Z' }), record({ provider: 'provider_b' }), explain);
    expect(explain['posted']).toBeLessThan(0);
  });

  it('ignores a missing field instead of counting it against', () => {
    const explain: Record<string, number> = {};
    pairScore(
      record({ employment_type: null, seniority: null, salary: null, description: null }),
      record({ provider: 'provider_b' }),
      explain,
    );
    expect(Object.keys(explain).sort()).toEqual(['applyUrl', 'city', 'posted', 'title']);
  });
});

describe('decide', () => {
  it('takes the best candidate and none below the threshold', () => {
    const input = recordToMatch(record({ provider: 'provider_b' }));
    const good = recordToMatch(record());
    const weak = recordToMatch(record({ apply_url: null, description: null, posted_at: '2026-10-01T10:00:00.000Z' }));
    const job = (id: string, r: typeof good): CandidateJob => ({
      id,
      features: r.features,
      keys: new Set(r.keys),
      providers: new Set(['provider_a']),
    });
    expect(decide(input, [job('weak', weak), job('good', good)]).jobId).toBe('good');
    const alone = decide(input, [job('weak', weak)]);
    expect(alone.jobId).toBeNull();
    expect(alone.score).toBeLessThan(MATCH_THRESHOLD);
    expect(decide(input, []).jobId).toBeNull();
  });
});

describe('merged fields', () => {
  const fields = (r: NormalizedProviderRecord) => fieldsOfRecord(r);

  it('replaces a snippet by the full description and a date by the exact time, and fills the domain', () => {
    const index = new CanonicalIndex();
    const { jobId } = index.merge(
      providerE({ posted_at: '2026-11-03T00:00:00.000Z', lossy: ['title', 'description', 'posted_at'] }),
    );
    index.merge(record({ provider: 'provider_c' }));
    const job = index.job(jobId)!;
    expect(job.fields).toMatchObject({
      description: DESCRIPTION,
      postedAt: POSTED,
      companyDomain: 'apexstack.com',
      seniority: 'senior',
      title: 'Senior Supply Chain Analyst',
    });
    expect(job.fieldSources.description).toMatchObject({ provider: 'provider_c', rank: 1 });
  });

  it('keeps values of a better source: a lossy level never replaces an exact one, whichever comes first', () => {
    const lead = record({ provider: 'provider_c', seniority: 'lead' });
    const lossy = record({ provider: 'provider_a', seniority: 'senior', lossy: ['seniority'] });
    for (const order of [
      [lead, lossy],
      [lossy, lead],
    ]) {
      const index = new CanonicalIndex();
      const { jobId } = index.merge(order[0]!);
      index.merge(order[1]!);
      expect(index.job(jobId)!.fields.seniority).toBe('lead');
    }
  });

  it('prefers a declared salary over an estimate', () => {
    const index = new CanonicalIndex();
    const { jobId } = index.merge(
      record({
        provider: 'provider_c',
        salary: { min: 1, max: 2, currency: 'EUR', period: 'year', origin: 'inferred' },
      }),
    );
    index.merge(record({ provider: 'provider_d' }));
    expect(index.job(jobId)!.fields.salary?.origin).toBe('declared');
  });

  it('sketches descriptions once: unchanged features can be reused', () => {
    const f = featuresOf(fields(record()));
    expect(featuresOf(fields(record()), f.description).description).toBe(f.description);
  });
});

describe('CanonicalIndex', () => {
  it('keeps ids stable: a known listing maps to its job and changes nothing', () => {
    const index = new CanonicalIndex();
    const a = record();
    const first = index.merge(a);
    expect(index.merge({ ...a, title: 'Renamed' })).toEqual({
      jobId: first.jobId,
      merged: false,
      known: true,
      reposted: false,
    });
    expect(index.jobOf(a.provider, a.provider_job_id)).toBe(first.jobId);
    expect(index.size).toBe(1);
  });

  it('reports merged only when joining an existing job', () => {
    const index = new CanonicalIndex();
    expect(index.merge(record()).merged).toBe(false);
    expect(index.merge(record({ provider: 'provider_b' })).merged).toBe(true);
  });

  it('matches stored jobs loaded from elsewhere and knows their sources', () => {
    const index = new CanonicalIndex();
    const stored = recordToMatch(record());
    index.load({
      id: 'job_stored',
      fields: stored.fields,
      keys: stored.keys,
      sources: [{ provider: 'provider_a', providerJobId: 'A-1' }],
    });
    expect(index.merge(providerE()).jobId).toBe('job_stored');
    expect(index.merge(record({ provider_job_id: 'A-1' }))).toMatchObject({ jobId: 'job_stored', known: true });
    expect(index.job('job_stored')!.providers).toEqual(new Set(['provider_a', 'provider_e']));
  });

  it('collects every key of merged records, so later name-only records still find the job', () => {
    const index = new CanonicalIndex();
    const { jobId } = index.merge(record());
    index.merge(providerE({ company: { name: 'Apexstack Logistics', domain: null }, apply_url: null }));
    expect([...index.job(jobId)!.keys].some((k) => k.startsWith('n:apexstack|'))).toBe(true);
  });

  describe('re-listings', () => {
    const LATER = '2026-11-19T08:00:00.000Z';

    it('a listing under a new id posted days later is a repost of the same job, its posting time moved', () => {
      const index = new CanonicalIndex();
      const { jobId } = index.merge(record());
      const again = index.merge(record({ posted_at: LATER }));
      expect(again).toMatchObject({ jobId, merged: true, reposted: true });
      expect(index.job(jobId)!.fields.postedAt).toBe(LATER);
      // another provider's listing of the re-listed opening is not a second repost
      expect(index.merge(record({ provider: 'provider_b', posted_at: LATER }))).toMatchObject({
        jobId,
        reposted: false,
      });
    });

    it(
      'the same day, a new id at a provider that stopped listing ' +
        'the job re-lists it; while it still lists it, another ' +
        'opening',
      () => {
        const SAME_DAY = '2026-11-03T15:40:00.000Z';
        const stored = recordToMatch(record({ apply_url: null }));
        const unlisted = new CanonicalIndex();
        unlisted.load({
          id: 'job_closed',
          fields: stored.fields,
          keys: stored.keys,
          sources: [{ provider: 'provider_a', providerJobId: 'A-1', listed: false }],
        });
        expect(unlisted.merge(record({ provider_job_id: 'A-2', apply_url: null, posted_at: SAME_DAY }))).toMatchObject({
          jobId: 'job_closed',
          merged: true,
        });
        const listed = new CanonicalIndex();
        listed.load({
          id: 'job_open',
          fields: stored.fields,
          keys: stored.keys,
          sources: [{ provider: 'provider_a', providerJobId: 'A-1', listed: true }],
        });
        expect(listed.merge(record({ provider_job_id: 'A-2', apply_url: null, posted_at: SAME_DAY })).jobId).not.toBe(
          'job_open',
        );
      },
    );

    it('is recognised without apply URLs on title, place, description and salary', () => {
      const index = new CanonicalIndex();
      const { jobId } = index.merge(record({ apply_url: null }));
      expect(index.merge(record({ apply_url: null, posted_at: LATER }))).toMatchObject({ jobId, reposted: true });
    });

    it('needs strong evidence: another description posted later is another opening', () => {
      const index = new CanonicalIndex();
      const { jobId } = index.merge(record({ apply_url: null }));
      const other = index.merge(record({ apply_url: null, posted_at: LATER, description: OTHER_DESCRIPTION }));
      expect(other.jobId).not.toBe(jobId);
      expect(other.reposted).toBe(false);
    });

    it('a listing posted the same day is no repost', () => {
      const index = new CanonicalIndex();
      index.merge(record());
      expect(index.merge(record({ provider: 'provider_b' })).reposted).toBe(false);
    });
  });

  it('gives the same partition whatever the arrival order', () => {
    const other = (o: Partial<NormalizedProviderRecord>) =>
      record({
        apply_url: 'https://jobs.apexstack.com/o/senior-supply-chain-analyst?id=0c41aa',
        posted_at: '2026-10-12T16:40:00.000Z',
        description: OTHER_DESCRIPTION,
        ...o,
      });
    const records = [
      record(),
      record({
        provider: 'provider_b',
        title: 'Senior Supply Chain Analyst (m/w/d)',
        posted_at: '2026-11-03T00:00:00.000Z',
      }),
      providerE(),
      record({ provider: 'provider_c', description: null }),
      other({ provider: 'provider_a' }),
      other({ provider: 'provider_f', title: 'SR. SUPPLY CHAIN ANALYST' }),
      providerE({
        apply_url: other({}).apply_url,
        posted_at: other({}).posted_at,
        description: `${OTHER_DESCRIPTION.slice(0, 140)}…`,
      }),
    ];
    const truth = [0, 0, 0, 0, 1, 1, 1];
    fc.assert(
      fc.property(
        fc.shuffledSubarray(
          records.map((_, i) => i),
          { minLength: records.length },
        ),
        (order) => {
          const index = new CanonicalIndex();
          const jobOf = new Map(order.map((i) => [i, index.merge(records[i]!).jobId]));
          for (let i = 0; i < records.length; i++)
            for (let j = 0; j < records.length; j++) expect(jobOf.get(i) === jobOf.get(j)).toBe(truth[i] === truth[j]);
        },
      ),
      { seed: 7, numRuns: 60 },
    );
  });
});
