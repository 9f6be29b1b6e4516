import type { Filters, ProviderSlug } from '@jobs/contracts';
import { estimateFromCounts, type EstimateInput } from './search-estimate.js';
import type { ProviderBatch } from './search-page.js';

const store = (matching: number, paid = 0, corroborated = matching): ProviderBatch => ({
  provider: 'own_index',
  outcome: 'ok',
  recordsIn: 0,
  duplicatesMerged: 0,
  jobs: [],
  storeCount: { matching, corroborated, paid },
});
const partner = (provider: ProviderSlug, total?: number, outcome: ProviderBatch['outcome'] = 'ok'): ProviderBatch => ({
  provider,
  outcome,
  recordsIn: 0,
  duplicatesMerged: 0,
  jobs: [],
  ...(total === undefined ? {} : { total }),
});
const ALL: ProviderSlug[] = ['own_index', 'provider_a', 'provider_b'];

function estimate(overrides: Partial<EstimateInput> & Pick<EstimateInput, 'batches'>) {
  return estimateFromCounts({
    providersPlanned: ALL,
    filters: { title_or: ['engineer'] },
    strategy: 'max_coverage',
    minSources: 2,
    limit: 25,
    maxCredits: null,
    ...overrides,
  });
}

describe('estimateFromCounts', () => {
  it('is the same whatever the limit: every page, from the store count and the partners totals', () => {
    const batches = [store(400), partner('provider_a', 300), partner('provider_b', 250)];
    const ranges = [1, 5, 25, 100].map((limit) => estimate({ batches, limit }).expected_unique_jobs_range);
    expect(new Set(ranges.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(ranges[0]).toEqual({ min: 400, max: 950 });
  });

  it('is exactly the store count for jobs only the own index lists (partners report none)', () => {
    expect(
      estimate({ batches: [store(24), partner('provider_a', 0), partner('provider_b', 0)], limit: 5 })
        .expected_unique_jobs_range,
    ).toEqual({ min: 24, max: 24 });
  });

  it(
    'raises the least to a partner total that counts exactly what ' +
      'our filters keep, never for filters checked only after the ' +
      'fetch',
    () => {
      const batches = [store(10), partner('provider_a', 120), partner('provider_b', 30)];
      expect(estimate({ batches }).expected_unique_jobs_range).toEqual({ min: 120, max: 160 });
      expect(
        estimate({ batches, filters: { title_or: ['engineer'], country_code_or: ['GB'], remote: true } })
          .expected_unique_jobs_range.min,
      ).toBe(120);
      for (const filters of [
        { title_or: ['engineer'], seniority_or: ['senior'] },
        { country_code_or: ['GB', 'DE'] },
        { salary_min_gte: 50_000 },
        { posted_within_days: 7 },
      ] as Filters[]) {
        expect(estimate({ batches, filters }).expected_unique_jobs_range).toEqual({ min: 10, max: 160 });
      }
    },
  );

  it('counts corroborated store jobs as the least for consensus', () => {
    expect(
      estimate({ batches: [store(50, 0, 12), partner('provider_a', 90)], strategy: 'consensus' })
        .expected_unique_jobs_range,
    ).toEqual({ min: 12, max: 140 });
  });

  it('adds nothing for a partner that failed or said no total', () => {
    expect(
      estimate({ batches: [store(5), partner('provider_a', 80, 'provider_timeout'), partner('provider_b')] })
        .expected_unique_jobs_range,
    ).toEqual({ min: 5, max: 5 });
  });

  it('without the own index planned, ranges over the partners alone', () => {
    const result = estimate({
      providersPlanned: ['provider_a', 'provider_b'],
      batches: [partner('provider_a', 40), partner('provider_b', 15)],
      limit: 10,
    });
    expect(result.expected_unique_jobs_range).toEqual({ min: 40, max: 55 });
    // nothing is known of what the account paid for: the least is 0
    expect(result.credits_range).toEqual({ min: 0, max: 10 });
  });

  describe('credits of one page', () => {
    it('a full page of new jobs costs the page: the least is no longer 0 when the account paid for nothing', () => {
      expect(estimate({ batches: [store(600)], limit: 100 }).credits_range).toEqual({ min: 100, max: 100 });
    });

    it('subtracts the matching jobs the account already paid for', () => {
      expect(estimate({ batches: [store(600, 30)], limit: 100 }).credits_range).toEqual({ min: 70, max: 100 });
      // all 24 matches paid: the same request costs nothing
      expect(estimate({ batches: [store(24, 24), partner('provider_a', 0)], limit: 25 }).credits_range).toEqual({
        min: 0,
        max: 0,
      });
      expect(estimate({ batches: [store(24, 20)], limit: 25 }).credits_range).toEqual({ min: 4, max: 4 });
    });

    it('never above max_credits', () => {
      expect(estimate({ batches: [store(600)], limit: 100, maxCredits: 7 }).credits_range).toEqual({ min: 7, max: 7 });
      expect(estimate({ batches: [store(600, 95)], limit: 100, maxCredits: 7 }).credits_range).toEqual({
        min: 5,
        max: 7,
      });
      expect(estimate({ batches: [store(600)], maxCredits: 0 }).credits_range).toEqual({ min: 0, max: 0 });
    });

    it('0 to 0 when nothing matches', () => {
      expect(estimate({ batches: [store(0), partner('provider_a', 0), partner('provider_b', 0)] })).toEqual({
        expected_unique_jobs_range: { min: 0, max: 0 },
        providers_planned: ALL,
        credits_range: { min: 0, max: 0 },
      });
    });
  });
});
