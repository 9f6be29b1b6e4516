import { examples } from '@jobs/contracts';
import { assembleSearchPage, assembleSearchResult, type AssembleInput } from './search-page.js';

const withSources = (j: ReturnType<typeof examples.job>, n: number) => ({
  ...j,
  sources: Array.from({ length: n }, (_, i) => ({
    ...j.sources[0]!,
    provider: i === 0 ? ('own_index' as const) : ('provider_a' as const),
    provider_job_id: `p${i}`,
  })),
});
const job = (id: string, salary = true) => ({ ...examples.job(), id, ...(salary ? {} : { salary: null }) });

/** The page, and per job of it the provider credited with it (what the gateway counts contributions from). */
function assemble(input: AssembleInput) {
  const page = assembleSearchPage(input);
  const { creditedTo } = assembleSearchResult(input);
  return { ...page, credited: page.data.map((j) => creditedTo[j.id]) };
}

describe('assembleSearchPage', () => {
  const base = {
    requestId: 'req_1',
    limit: 10,
    startedAt: 1000,
    now: 1250,
    filters: {},
    strategy: 'max_coverage' as const,
    minSources: 2,
  };

  it('merges batches in plan order, each job once, crediting the first provider', () => {
    const page = assemble({
      ...base,
      providers: ['own_index', 'provider_a'],
      batches: [
        // dedupe merged the own index's batch first: job_a and job_b new; provider_a's record of job_b joined it
        {
          provider: 'provider_a',
          outcome: 'ok',
          recordsIn: 3,
          duplicatesMerged: 2,
          jobs: [withSources(job('job_b'), 2), job('job_c')],
        },
        { provider: 'own_index', outcome: 'ok', recordsIn: 2, duplicatesMerged: 0, jobs: [job('job_a'), job('job_b')] },
      ],
    });
    expect(page.data.map((j) => j.id)).toEqual(['job_a', 'job_b', 'job_c']);
    expect(page.credited).toEqual(['own_index', 'own_index', 'provider_a']);
    // 5 records stood for 3 jobs: dedupe's counts of the answered batches.
    expect(page.metadata.duplicates_merged).toBe(2);
    // job_b's later snapshot lists both sources.
    expect(page.data[1]!.sources).toHaveLength(2);
    expect(page.metadata.status).toBe('complete');
    expect(page.metadata.latency_ms).toBe(250);
  });

  it(
    'credits the own index with what its store answered, counting ' +
      'sightings of stored jobs but not store answers as merged ' +
      'records',
    () => {
      const page = assemble({
        ...base,
        providers: ['own_index', 'provider_a'],
        batches: [
          // one crawler record (job_a) and two jobs from the store (job_s1, job_s2)
          {
            provider: 'own_index',
            outcome: 'ok',
            recordsIn: 1,
            duplicatesMerged: 0,
            fromStore: 2,
            jobs: [job('job_a'), job('job_s1'), job('job_s2')],
          },
          // two partner records: one opening the store already had (merged into it), one new
          {
            provider: 'provider_a',
            outcome: 'ok',
            recordsIn: 2,
            duplicatesMerged: 1,
            jobs: [job('job_s1'), job('job_c')],
          },
        ],
      });
      expect(page.data.map((j) => j.id)).toEqual(['job_a', 'job_s1', 'job_s2', 'job_c']);
      expect(page.credited).toEqual(['own_index', 'own_index', 'own_index', 'provider_a']);
      // the partner's record of a stored job was merged into it; the store's answers are no records
      expect(page.metadata.duplicates_merged).toBe(1);
    },
  );

  it('never reports more merged records than came in, and none of a failed batch', () => {
    const page = assembleSearchPage({
      ...base,
      providers: ['own_index', 'provider_a', 'provider_b'],
      batches: [
        {
          provider: 'own_index',
          outcome: 'ok',
          recordsIn: 0,
          duplicatesMerged: 0,
          fromStore: 1,
          jobs: [job('job_s1')],
        },
        { provider: 'provider_a', outcome: 'ok', recordsIn: 2, duplicatesMerged: 2, jobs: [job('job_s1')] },
        { provider: 'provider_b', outcome: 'provider_error', recordsIn: 0, duplicatesMerged: 0, jobs: [] },
      ],
    });
    expect(page.metadata.duplicates_merged).toBe(2);
    const again = assembleSearchPage({
      ...base,
      providers: ['provider_a'],
      batches: [{ provider: 'provider_a', outcome: 'ok', recordsIn: 1, duplicatesMerged: 3, jobs: [job('job_s1')] }],
    });
    expect(again.metadata.duplicates_merged).toBe(1);
  });

  it('is partial and lists the failed providers, a missing batch as a timeout', () => {
    const page = assembleSearchPage({
      ...base,
      providers: ['own_index', 'provider_a', 'provider_b'],
      batches: [
        { provider: 'own_index', outcome: 'ok', recordsIn: 0, duplicatesMerged: 0, jobs: [] },
        { provider: 'provider_a', outcome: 'provider_error', recordsIn: 0, duplicatesMerged: 0, jobs: [] },
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
    const page = assembleSearchPage({
      ...base,
      limit: 1,
      providers: ['own_index'],
      batches: [
        { provider: 'own_index', outcome: 'ok', recordsIn: 2, duplicatesMerged: 0, jobs: [job('job_a'), job('job_b')] },
      ],
    });
    expect(page.data).toHaveLength(1);
  });
});

describe('assembleSearchPage filters and consensus', () => {
  const base = { requestId: 'req_1', limit: 10, startedAt: 0, now: Date.parse('2026-11-22T12:00:00Z'), minSources: 2 };

  it('applies every filter to the merged jobs, whatever the providers sent', () => {
    const page = assemble({
      ...base,
      strategy: 'max_coverage',
      filters: { title_or: ['designer'] },
      providers: ['own_index'],
      batches: [
        {
          provider: 'own_index',
          outcome: 'ok',
          recordsIn: 2,
          duplicatesMerged: 0,
          jobs: [
            { ...job('job_a'), title: 'Product Designer' },
            { ...job('job_b'), title: 'Engineer' },
          ],
        },
      ],
    });
    expect(page.data.map((j) => j.id)).toEqual(['job_a']);
    expect(page.credited).toEqual(['own_index']);
  });

  it('keeps only jobs seen by min_sources providers under consensus', () => {
    const page = assembleSearchPage({
      ...base,
      strategy: 'consensus',
      filters: {},
      providers: ['own_index', 'provider_a'],
      batches: [
        {
          provider: 'own_index',
          outcome: 'ok',
          recordsIn: 2,
          duplicatesMerged: 0,
          jobs: [withSources(job('job_single'), 1), withSources(job('job_double'), 2)],
        },
        {
          provider: 'provider_a',
          outcome: 'ok',
          recordsIn: 1,
          duplicatesMerged: 0,
          jobs: [withSources(job('job_double'), 2)],
        },
      ],
    });
    expect(page.data.map((j) => j.id)).toEqual(['job_double']);
    expect(page.metadata.providers.hit).toEqual(['own_index', 'provider_a']);
  });
});
