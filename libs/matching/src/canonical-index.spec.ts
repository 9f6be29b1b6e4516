import fc from 'fast-check';
import type { NormalizedProviderRecord } from '@jobs/contracts';
import { CanonicalIndex, recordToMatch } from './canonical-index.js';
import { OTHER_DESCRIPTION, providerE, record } from './canonical-index.spec-helper.js';

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
      generation: 0,
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

    it('the same day, a new id at a provider that stopped listing the job re-lists it', () => {
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
        reposted: true,
        generation: 1,
      });
    });

    describe('a provider showing a job it lists under a new id', () => {
      const SAME_DAY = '2026-11-03T15:40:00.000Z';
      /** The job provider_a lists as A-1, at `applyUrl`. */
      const listedIndex = (applyUrl: string | null = null): CanonicalIndex => {
        const stored = recordToMatch(record({ apply_url: applyUrl }));
        const index = new CanonicalIndex();
        index.load({
          id: 'job_open',
          fields: stored.fields,
          keys: stored.keys,
          sources: [{ provider: 'provider_a', providerJobId: 'A-1', listed: true }],
        });
        return index;
      };

      it('re-lists it when the read does not show the earlier listing', () => {
        const index = listedIndex();
        index.read([]);
        expect(index.merge(record({ provider_job_id: 'A-2', apply_url: null, posted_at: SAME_DAY }))).toMatchObject({
          jobId: 'job_open',
          reposted: true,
          generation: 1,
        });
      });

      it('is another opening when the same read shows both listings live', () => {
        const index = listedIndex();
        const earlier = record({ provider_job_id: 'A-1', apply_url: null });
        index.read([earlier]);
        const other = index.merge(record({ provider_job_id: 'A-2', apply_url: null, posted_at: SAME_DAY }));
        expect(other.jobId).not.toBe('job_open');
        expect(other.reposted).toBe(false);
      });

      it('is another opening when another part of the read shows the earlier listing', () => {
        const index = listedIndex();
        index.read([], [{ provider: 'provider_a', provider_job_id: 'A-1' }]);
        const other = index.merge(record({ provider_job_id: 'A-2', apply_url: null, posted_at: SAME_DAY }));
        expect([other.jobId === 'job_open', other.reposted]).toEqual([false, false]);
      });

      it('re-lists it at a new posting URL of the board once the earlier posting is gone, not before', () => {
        const atBoard = (id: string) => `https://boards.greenhouse.io/acme/jobs/${id}`;
        const load = () => listedIndex(atBoard('4012345678'));
        const relisting = record({ provider_job_id: 'A-2', apply_url: atBoard('4098765432'), posted_at: SAME_DAY });
        // the earlier posting still listed (in another part of the sweep): a second opening
        const stillListed = load();
        stillListed.read([]);
        expect(stillListed.merge(relisting).jobId).not.toBe('job_open');
        const live = load();
        live.read([record({ provider_job_id: 'A-1', apply_url: atBoard('4012345678') })]);
        expect(live.merge(relisting).jobId).not.toBe('job_open');
        // posted days later, as alike as can be, both live in one read: two openings
        const twin = load();
        twin.read([record({ provider_job_id: 'A-1', apply_url: atBoard('4012345678') })]);
        const second = twin.merge(
          record({ provider_job_id: 'A-3', apply_url: atBoard('4055555555'), posted_at: LATER }),
        );
        expect([second.jobId === 'job_open', second.reposted]).toEqual([false, false]);
        // the board stopped listing the first posting (the job closed with it) before the new one came
        const closed = new CanonicalIndex();
        const sparse = recordToMatch(record({ apply_url: atBoard('4012345678'), salary: null, employment_type: null }));
        closed.load({
          id: 'job_closed',
          fields: sparse.fields,
          keys: sparse.keys,
          sources: [{ provider: 'provider_a', providerJobId: 'A-1', listed: false }],
          closed: true,
        });
        closed.read([]);
        const later = record({
          provider_job_id: 'A-2',
          apply_url: atBoard('4098765432'),
          salary: null,
          employment_type: null,
          posted_at: LATER,
        });
        expect(closed.merge(later)).toMatchObject({ jobId: 'job_closed', reposted: true, generation: 1 });
        // the new posting's URL is where to apply now (the first one is taken down)
        expect(closed.job('job_closed')!.fields.applyUrl).toBe(atBoard('4098765432'));
        // an employer page of another opening is no posting of the board: still another opening
        const employerPage = load();
        employerPage.read([]);
        const other = record({
          provider_job_id: 'A-2',
          apply_url: 'https://acme.com/careers/ops',
          posted_at: SAME_DAY,
        });
        expect(employerPage.merge(other).jobId).not.toBe('job_open');
      });

      it('is another opening when a field both state disagrees (another city)', () => {
        const index = listedIndex();
        index.read([]);
        const elsewhere = record({
          provider_job_id: 'A-2',
          apply_url: null,
          posted_at: SAME_DAY,
          location: { city: 'Milan', region: 'Lombardy', country_code: 'IT', remote: false },
        });
        expect(index.merge(elsewhere).jobId).not.toBe('job_open');
      });
    });

    it('a bare opening (a title and a company only) re-listed minutes later keeps its id, counted once', () => {
      const bare = (o: Partial<NormalizedProviderRecord>): NormalizedProviderRecord =>
        record({
          location: { city: null, region: null, country_code: null, remote: null },
          employment_type: null,
          seniority: null,
          salary: null,
          description: null,
          apply_url: null,
          ...o,
        });
      const index = new CanonicalIndex();
      const first = index.merge(bare({ provider: 'own_index', provider_job_id: 'oi-1' }));
      expect(index.merge(bare({ provider_job_id: 'A-1' }))).toMatchObject({ jobId: first.jobId, reposted: false });
      const relisted = '2026-11-03T09:16:02.000Z';
      index.read([]);
      expect(index.merge(bare({ provider: 'own_index', provider_job_id: 'oi-2', posted_at: relisted }))).toMatchObject({
        jobId: first.jobId,
        reposted: true,
        generation: 1,
      });
      // provider_a shows the same re-listing later: it catches up, no second repost
      index.read([]);
      expect(index.merge(bare({ provider_job_id: 'A-2', posted_at: relisted }))).toMatchObject({
        jobId: first.jobId,
        reposted: false,
        generation: 1,
      });
      expect(index.job(first.jobId)!.fields.postedAt).toBe(relisted);
      // a second re-listing counts again
      index.read([]);
      expect(index.merge(bare({ provider_job_id: 'A-3', posted_at: '2026-11-03T09:20:00.000Z' }))).toMatchObject({
        jobId: first.jobId,
        reposted: true,
        generation: 2,
      });
      expect(index.size).toBe(1);
    });

    it('a provider catching up with a re-listing counted in an earlier transaction joins it', () => {
      const stored = recordToMatch(record({ apply_url: null }));
      const index = new CanonicalIndex();
      index.load({
        id: 'job_relisted',
        fields: stored.fields,
        keys: stored.keys,
        repostCount: 1,
        sources: [
          { provider: 'provider_a', providerJobId: 'A-1', listed: true, generation: 0 },
          { provider: 'provider_b', providerJobId: 'B-2', listed: true, generation: 1 },
        ],
      });
      index.read([]);
      expect(index.merge(record({ provider_job_id: 'A-2', apply_url: null }))).toMatchObject({
        jobId: 'job_relisted',
        reposted: false,
        generation: 1,
      });
    });

    it('a closed job re-listed by several providers in one read counts one repost', () => {
      const stored = recordToMatch(record());
      const index = new CanonicalIndex();
      index.load({
        id: 'job_closed',
        fields: stored.fields,
        keys: stored.keys,
        closed: true,
        sources: [
          { provider: 'provider_a', providerJobId: 'A-1', listed: false },
          { provider: 'provider_b', providerJobId: 'B-1', listed: false },
        ],
      });
      index.read([]);
      expect(index.merge(record({ provider_job_id: 'A-2' }))).toMatchObject({ jobId: 'job_closed', reposted: true });
      expect(index.merge(record({ provider: 'provider_b', provider_job_id: 'B-2' }))).toMatchObject({
        jobId: 'job_closed',
        reposted: false,
        generation: 1,
      });
    });

    it("a known listing re-lists its closed job once; the read's other listings of it join that re-listing", () => {
      const own = record({ provider: 'own_index', provider_job_id: 'greenhouse:apexstack:1' });
      const stored = recordToMatch(own);
      const index = new CanonicalIndex();
      index.load({
        id: 'job_closed',
        fields: stored.fields,
        keys: stored.keys,
        closed: true,
        sources: [{ provider: 'own_index', providerJobId: own.provider_job_id, listed: false, generation: 0 }],
      });
      const again = { ...own, posted_at: LATER };
      expect(index.relistKnown(again)).toEqual({
        jobId: 'job_closed',
        merged: false,
        known: true,
        reposted: true,
        generation: 1,
      });
      expect(index.job('job_closed')!.fields.postedAt).toBe(LATER);
      index.read([again]);
      // the board's second posting of it beside the listing live again: no second re-listing
      const beside = record({ provider: 'own_index', provider_job_id: 'greenhouse:apexstack:2', posted_at: LATER });
      expect(index.merge(beside)).toMatchObject({ reposted: false });
      // a partner's new id of it joins the re-listing
      expect(index.merge(record({ provider: 'provider_b', posted_at: LATER }))).toMatchObject({
        jobId: 'job_closed',
        reposted: false,
        generation: 1,
      });
    });

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
