import type { NormalizedProviderRecord } from '@jobs/contracts';
import { CanonicalIndex } from './canonical-index.js';
import { DESCRIPTION, POSTED, providerE, record } from './canonical-index.spec-helper.js';
import { featuresOf, fieldsOfRecord } from './features.js';

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
