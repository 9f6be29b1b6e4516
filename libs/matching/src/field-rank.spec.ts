import fc from 'fast-check';
import type { NormalizedProviderRecord, ProviderSlug } from '@jobs/contracts';
import { fieldsOfRecord } from './features.js';
import {
  UNRECORDED_SOURCE,
  bestCompanyNames,
  companyNameRank,
  compareSources,
  decodeFieldSources,
  encodeFieldSources,
  isBetterCompanyName,
  listingChanges,
  rankedMerge,
  sourceRank,
  sourcesOfRecord,
  type RankedJob,
} from './field-rank.js';

let sequence = 0;
function record(provider: ProviderSlug, overrides: Partial<NormalizedProviderRecord> = {}): NormalizedProviderRecord {
  return {
    provider,
    provider_job_id: `${provider}-${sequence++}`,
    url: null,
    title: 'Platform Lead',
    company: { name: 'Northwind', domain: 'northwind.example' },
    location: { city: 'Leeds', region: 'England', country_code: 'GB', remote: false },
    employment_type: 'full_time',
    seniority: 'lead',
    job_family: null,
    salary: { min: 80_000, max: 95_000, currency: 'GBP', period: 'year', origin: 'declared' },
    description: 'Lead the platform team.',
    apply_url: 'https://northwind.example/careers/1',
    posted_at: '2026-11-02T10:00:00.000Z',
    seen_at: '2026-11-20T12:00:00.000Z',
    ...overrides,
  };
}

const jobOf = (r: NormalizedProviderRecord): RankedJob => ({
  fields: fieldsOfRecord(r),
  sources: sourcesOfRecord(r, fieldsOfRecord(r)),
});

/** Merges records in order the way the index does: the first makes the job, each next one may decide fields. */
function mergeAll(records: readonly NormalizedProviderRecord[]): RankedJob {
  let job = jobOf(records[0]!);
  for (const r of records.slice(1)) {
    const { changes, sources } = rankedMerge(job, r, fieldsOfRecord(r));
    job = { fields: { ...job.fields, ...changes }, sources: { ...job.sources, ...sources } };
  }
  return job;
}

describe('sourceRank', () => {
  it('ranks the own crawler first-hand, a partner exact, a value its adapter marked lossy or an estimate last', () => {
    expect(sourceRank(record('own_index', { lossy: ['seniority'] }), 'seniority')).toBe(0);
    expect(sourceRank(record('provider_d'), 'seniority')).toBe(1);
    expect(sourceRank(record('provider_a', { lossy: ['seniority'] }), 'seniority')).toBe(2);
    expect(sourceRank(record('provider_a', { lossy: ['seniority'] }), 'title')).toBe(1);
    expect(
      sourceRank(
        record('provider_c', { salary: { min: 1, max: 2, currency: 'GBP', period: 'year', origin: 'inferred' } }),
        'salary',
      ),
    ).toBe(2);
  });
});

describe('compareSources', () => {
  it('orders by rank, then provider slug, then provider job id', () => {
    const s = (rank: 0 | 1 | 2, provider: string, providerJobId = 'x') => ({ rank, provider, providerJobId });
    expect(compareSources(s(1, 'provider_f'), s(2, 'provider_a'))).toBeLessThan(0);
    expect(compareSources(s(1, 'provider_c'), s(1, 'provider_d'))).toBeLessThan(0);
    expect(compareSources(s(1, 'provider_c', 'b'), s(1, 'provider_c', 'a'))).toBeGreaterThan(0);
    expect(compareSources(s(1, 'provider_c'), s(1, 'provider_c'))).toBe(0);
    // a value stored before sources were recorded: only the own crawler ranks above it
    expect(compareSources(s(0, 'own_index'), UNRECORDED_SOURCE)).toBeLessThan(0);
    expect(compareSources(s(1, 'provider_a'), UNRECORDED_SOURCE)).toBeGreaterThan(0);
  });
});

describe('rankedMerge', () => {
  it(
    'gives lead, not the lossy senior of provider_a, whichever ' +
      'source comes first (own_index, then the exact partners)',
    () => {
      const own = record('own_index');
      const a = record('provider_a', { seniority: 'senior', lossy: ['seniority'] });
      const c = record('provider_c');
      const d = record('provider_d');
      expect(mergeAll([a, c, d]).fields.seniority).toBe('lead');
      expect(mergeAll([a, c, d]).sources.seniority).toMatchObject({ provider: 'provider_c', rank: 1 });
      expect(mergeAll([a, own, c]).sources.seniority).toMatchObject({ provider: 'own_index', rank: 0 });
      expect(mergeAll([a]).fields.seniority).toBe('senior');
    },
  );

  it('fills a field the job lacks with any value, and takes the company domain a record brings', () => {
    const e = record('provider_e', {
      company: { name: 'NORTHWIND', domain: null },
      seniority: null,
      lossy: ['description'],
    });
    const f = record('provider_f', { seniority: 'director', lossy: ['seniority'] });
    const job = mergeAll([e, f]);
    expect(job.fields).toMatchObject({ seniority: 'director', companyDomain: 'northwind.example' });
    expect(job.fields.description).toBe(e.description);
  });

  it('ranks the place and remote apart: a partner that says remote false for "not said" does not decide remote', () => {
    const b = record('provider_b', {
      location: { city: 'Leeds', region: 'England', country_code: 'GB', remote: false },
      lossy: ['location.remote'],
    });
    const e = record('provider_e', { location: { city: null, region: null, country_code: 'GB', remote: true } });
    const job = mergeAll([b, e]);
    expect(job.fields).toMatchObject({ city: 'Leeds', region: 'England', countryCode: 'GB', remote: true });
    expect(job.sources.location).toMatchObject({ provider: 'provider_b' });
  });

  it('gives the same job whatever order the sources come in', () => {
    const sources = [
      record('own_index', { job_family: 'engineering', posted_at: '2026-11-02T10:00:00.000Z' }),
      record('provider_a', {
        seniority: 'senior',
        lossy: ['seniority'],
        description: 'Lead the platform team. Apply now.',
      }),
      record('provider_b', {
        title: 'Platform Lead (m/w/d)',
        seniority: null,
        posted_at: '2026-11-02T00:00:00.000Z',
        lossy: ['title', 'location.remote', 'posted_at'],
      }),
      record('provider_c', {
        salary: { min: 70_000, max: 90_000, currency: 'GBP', period: 'year', origin: 'inferred' },
        description: null,
        lossy: ['salary'],
      }),
      record('provider_d', {
        location: { city: 'England', region: null, country_code: 'GB', remote: false },
        lossy: ['location', 'posted_at'],
        posted_at: '2026-11-02T00:00:00.000Z',
      }),
      record('provider_e', {
        title: 'platform lead',
        company: { name: 'Northwind', domain: null },
        seniority: null,
        employment_type: null,
        description: 'Lead the…',
        lossy: ['title', 'description'],
      }),
      record('provider_f', {
        title: 'PLATFORM LEAD',
        seniority: 'director',
        lossy: ['title', 'seniority'],
        employment_type: 'contract',
      }),
    ];
    const expected = mergeAll(sources);
    fc.assert(
      fc.property(fc.shuffledSubarray(sources, { minLength: sources.length }), (order) => {
        expect(mergeAll(order)).toEqual(expected);
      }),
      { seed: 34, numRuns: 300 },
    );
    // and without the crawler, the exact partners decide
    const partners = sources.slice(1);
    const withoutOwn = mergeAll(partners);
    fc.assert(
      fc.property(fc.shuffledSubarray(partners, { minLength: partners.length }), (order) =>
        expect(mergeAll(order)).toEqual(withoutOwn),
      ),
      { seed: 35, numRuns: 200 },
    );
    expect(withoutOwn.fields).toMatchObject({
      title: 'Platform Lead',
      seniority: 'lead',
      employmentType: 'full_time',
      city: 'Leeds',
      postedAt: '2026-11-02T10:00:00.000Z',
    });
    expect(withoutOwn.fields.salary?.origin).toBe('declared');
  });
});

describe('listingChanges', () => {
  it('follows a listing that decided the field, or a better one; not a worse one', () => {
    const c = record('provider_c');
    const a = record('provider_a', { seniority: 'senior', lossy: ['seniority'] });
    const job = mergeAll([c, a]);
    const cNow = { ...c, seniority: 'director' as const };
    expect(listingChanges(job, cNow, fieldsOfRecord(cNow), ['seniority']).changes).toEqual({ seniority: 'director' });
    const aNow = { ...a, seniority: 'vp' as const };
    expect(listingChanges(job, aNow, fieldsOfRecord(aNow), ['seniority']).changes).toEqual({});
    // a listing that drops its value leaves the job's
    const cDropped = { ...c, seniority: null };
    expect(listingChanges(job, cDropped, fieldsOfRecord(cDropped), ['seniority']).changes).toEqual({});
  });
});

describe('stored field sources', () => {
  it('round-trip through their stored form, and ignore entries of another shape', () => {
    const sources = sourcesOfRecord(
      record('provider_a', { lossy: ['seniority'] }),
      fieldsOfRecord(record('provider_a')),
    );
    expect(decodeFieldSources(JSON.parse(JSON.stringify(encodeFieldSources(sources))))).toEqual(sources);
    expect(
      decodeFieldSources({ seniority: [7, 'provider_a', 'x'], title: 'own_index', salary: [1, 'provider_b', 'B-1'] }),
    ).toEqual({ salary: { rank: 1, provider: 'provider_b', providerJobId: 'B-1' } });
    expect(decodeFieldSources(null)).toEqual({});
  });
});

describe('company names', () => {
  const offer = (provider: string, name: string, domain: string | null = 'acme.com') => ({
    provider,
    fields: { companyDomain: domain, companyName: name },
  });

  it('ranks the own crawler first, then the partners in slug order', () => {
    expect(companyNameRank('own_index')).toBeLessThan(companyNameRank('provider_a'));
    expect(companyNameRank('provider_a')).toBeLessThan(companyNameRank('provider_f'));
  });

  it('keeps the best name per domain whatever order the records come in', () => {
    const records = [
      offer('provider_e', 'ACME, Inc.'),
      offer('provider_a', 'Acme GmbH'),
      offer('provider_a', 'Acme'),
      offer('own_index', 'Acme Robotics', 'acme.io'),
      offer('provider_c', 'ACME', null),
    ];
    fc.assert(
      fc.property(fc.shuffledSubarray(records, { minLength: records.length, maxLength: records.length }), (order) => {
        const best = bestCompanyNames(order);
        expect([...best.values()].sort((a, b) => a.domain.localeCompare(b.domain))).toEqual([
          { domain: 'acme.com', name: 'Acme', rank: companyNameRank('provider_a') },
          { domain: 'acme.io', name: 'Acme Robotics', rank: companyNameRank('own_index') },
        ]);
      }),
    );
  });

  it(
    'replaces a stored name only with a better-ranked one, or a ' +
      'smaller one of the same rank; an unranked one with any',
    () => {
      const stored = { name: 'Acme GmbH', rank: companyNameRank('provider_a') };
      expect(isBetterCompanyName({ name: 'Acme', rank: companyNameRank('own_index') }, stored)).toBe(true);
      expect(isBetterCompanyName({ name: 'Acme', rank: companyNameRank('provider_a') }, stored)).toBe(true);
      expect(isBetterCompanyName({ name: 'Acme Inc', rank: companyNameRank('provider_a') }, stored)).toBe(false);
      expect(isBetterCompanyName({ name: 'ACME', rank: companyNameRank('provider_c') }, stored)).toBe(false);
      expect(
        isBetterCompanyName({ name: 'ACME', rank: companyNameRank('provider_f') }, { name: 'Acme', rank: null }),
      ).toBe(true);
    },
  );
});
