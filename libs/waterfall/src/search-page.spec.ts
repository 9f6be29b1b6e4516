import { examples } from '@jobs/contracts';
import { assembleSearchPage, fieldCoverage } from './search-page.js';

const job = (id: string, salary = true) => ({ ...examples.job(), id, ...(salary ? {} : { salary: null }) });

describe('assembleSearchPage', () => {
  const base = { requestId: 'req_1', limit: 10, startedAt: 1000, now: 1250 };

  it('merges batches in plan order, each job once, crediting the first provider', () => {
    const page = assembleSearchPage({
      ...base,
      providers: ['own_index', 'provider_a'],
      batches: [
        { provider: 'provider_a', outcome: 'ok', duplicatesMerged: 1, jobs: [job('job_b'), job('job_c')] },
        { provider: 'own_index', outcome: 'ok', duplicatesMerged: 0, jobs: [job('job_a'), job('job_b')] },
      ],
    });
    expect(page.data.map((j) => j.id)).toEqual(['job_a', 'job_b', 'job_c']);
    expect(page.metadata.providers.contributions).toEqual({ own_index: 2, provider_a: 1 });
    expect(page.metadata.duplicates_merged).toBe(2);
    expect(page.metadata.status).toBe('complete');
    expect(page.metadata.latency_ms).toBe(250);
  });

  it('is partial and lists the failed providers, a missing batch as a timeout', () => {
    const page = assembleSearchPage({
      ...base,
      providers: ['own_index', 'provider_a', 'provider_b'],
      batches: [
        { provider: 'own_index', outcome: 'ok', duplicatesMerged: 0, jobs: [] },
        { provider: 'provider_a', outcome: 'provider_error', duplicatesMerged: 0, jobs: [] },
      ],
    });
    expect(page.metadata.status).toBe('partial');
    expect(page.metadata.providers.failed).toEqual([
      { provider: 'provider_a', code: 'provider_error' },
      { provider: 'provider_b', code: 'provider_timeout' },
    ]);
    expect(page.metadata.providers.hit).toEqual([]);
  });

  it('cuts the page at the limit', () => {
    const page = assembleSearchPage({ ...base, limit: 1, providers: ['own_index'], batches: [{ provider: 'own_index', outcome: 'ok', duplicatesMerged: 0, jobs: [job('job_a'), job('job_b')] }] });
    expect(page.data).toHaveLength(1);
  });
});

describe('fieldCoverage', () => {
  it('reports the fraction of jobs with a value', () => {
    expect(fieldCoverage([job('job_a'), job('job_b', false)])['salary']).toBe(0.5);
    expect(fieldCoverage([])['salary']).toBe(0);
  });
});
