import type { Filters, ProviderSlug, SearchRecordsDeduplicated } from '@jobs/contracts';
import { estimateFromCounts, SMALL_COUNT, type EstimateInput } from './search-estimate.js';
import type { ProviderBatch } from './search-page.js';

type ByProvider = NonNullable<SearchRecordsDeduplicated.StoreCount['by_provider']>;

/** The store's count; `seen`: per partner, [its stored jobs matching, matching the part it applies]. */
const store = (
  matching: number,
  options: { paid?: number; corroborated?: number; applied?: number; seen?: Record<string, [number, number]> } = {},
): ProviderBatch => ({
  provider: 'own_index',
  outcome: 'ok',
  recordsIn: 0,
  duplicatesMerged: 0,
  jobs: [],
  storeCount: {
    matching,
    corroborated: options.corroborated ?? matching,
    paid: options.paid ?? 0,
    applied: options.applied ?? matching,
    by_provider: Object.entries(options.seen ?? {}).map(([provider, [m, applied]]) => ({
      provider: provider as ProviderSlug,
      matching: m,
      applied,
    })) as ByProvider,
  },
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
    const batches = [store(400, { seen: { provider_a: [250, 250] } }), partner('provider_a', 300)];
    const ranges = [1, 5, 25, 100].map((limit) => estimate({ batches, limit }).expected_unique_jobs_range);
    expect(new Set(ranges.map((r) => JSON.stringify(r))).size).toBe(1);
  });

  it('a store that holds every partner posting is the answer: the range is tight', () => {
    const batches = [
      store(120, { seen: { provider_a: [80, 80], provider_b: [60, 60] } }),
      partner('provider_a', 80),
      partner('provider_b', 60),
    ];
    expect(estimate({ batches }).expected_unique_jobs_range).toEqual({ min: 120, max: 120 });
  });

  it('adds what each partner lists beyond the store, as if none of it were one opening', () => {
    const batches = [
      store(100, { seen: { provider_a: [40, 40], provider_b: [30, 30] } }),
      partner('provider_a', 60),
      partner('provider_b', 40),
    ];
    const { min, max } = estimate({ batches }).expected_unique_jobs_range;
    expect(min).toBe(100);
    // 20 + 10 beyond the store, and a slack for jobs opening while the pages are walked
    expect(max).toBeGreaterThanOrEqual(130);
    expect(max).toBeLessThanOrEqual(140);
  });

  it('scales what a partner lists beyond the store by the share of its stored jobs the whole filter keeps', () => {
    const filters: Filters = { title_or: ['engineer'], seniority_or: ['senior'] };
    // provider_a's total counts every engineer; a quarter of those it lists in the store are senior
    const batches = [store(25, { applied: 100, seen: { provider_a: [20, 80] } }), partner('provider_a', 120)];
    const { min, max } = estimate({
      batches,
      filters,
      providersPlanned: ['own_index', 'provider_a'],
    }).expected_unique_jobs_range;
    expect(min).toBe(25);
    expect(max).toBeGreaterThanOrEqual(25 + 10);
    expect(max).toBeLessThanOrEqual(25 + 10 + 4);
  });

  it(
    'raises the least to a partner total that counts exactly what ' +
      'our filters keep, never for filters checked only after the ' +
      'fetch',
    () => {
      const batches = [store(10), partner('provider_a', 120), partner('provider_b', 30)];
      expect(estimate({ batches }).expected_unique_jobs_range.min).toBe(120);
      for (const filters of [
        { title_or: ['engineer'], seniority_or: ['senior'] },
        { country_code_or: ['GB', 'DE'] },
        { salary_min_gte: 50_000 },
        { posted_within_days: 7 },
      ] as Filters[]) {
        expect(estimate({ batches, filters }).expected_unique_jobs_range.min).toBe(10);
      }
    },
  );

  it('counts corroborated store jobs as the least for consensus', () => {
    expect(
      estimate({
        batches: [store(50, { corroborated: 12, seen: { provider_a: [50, 50] } }), partner('provider_a', 50)],
        strategy: 'consensus',
      }).expected_unique_jobs_range,
    ).toEqual({ min: 12, max: 50 });
  });

  it("promises no credits for consensus: its first page may hold none of the store's corroborated jobs", () => {
    const result = estimate({
      batches: [store(1000, { corroborated: 100, seen: { provider_a: [1000, 1000] } }), partner('provider_a', 1000)],
      strategy: 'consensus',
      limit: 25,
    });
    expect(result.credits_range).toEqual({ min: 0, max: 25 });
  });

  it('adds nothing for a partner that failed or said no total', () => {
    expect(
      estimate({ batches: [store(50), partner('provider_a', 80, 'provider_timeout'), partner('provider_b')] })
        .expected_unique_jobs_range,
    ).toEqual({ min: 50, max: 50 });
  });

  it('without the own index planned, ranges over the partners alone', () => {
    const result = estimate({
      providersPlanned: ['provider_a', 'provider_b'],
      batches: [partner('provider_a', 40), partner('provider_b', 15)],
      limit: 10,
    });
    expect(result.expected_unique_jobs_range.min).toBe(40);
    expect(result.expected_unique_jobs_range.max).toBeGreaterThanOrEqual(55);
    // nothing is known of what the account paid for: the least is 0
    expect(result.credits_range).toEqual({ min: 0, max: 10 });
  });

  describe('a small count is not told exactly', () => {
    it(`below ${SMALL_COUNT}: 0 to ${SMALL_COUNT}, whether one job or none matches filters on its fields`, () => {
      const filters: Filters = { title_or: ['engineer'], company_domain_or: ['acme.example'], salary_min_gte: 90_000 };
      for (const matching of [0, 1, 9])
        expect(estimate({ batches: [store(matching)], filters, limit: 25 })).toMatchObject({
          expected_unique_jobs_range: { min: 0, max: SMALL_COUNT },
          credits_range: { min: 0, max: SMALL_COUNT },
        });
    });

    it('0 to 0 when nothing matches filters that only name jobs (title, company)', () => {
      expect(estimate({ batches: [store(0), partner('provider_a', 0), partner('provider_b', 0)] })).toEqual({
        expected_unique_jobs_range: { min: 0, max: 0 },
        providers_planned: ALL,
        credits_range: { min: 0, max: 0 },
      });
    });
  });

  describe('providers planned', () => {
    const waves: ProviderSlug[][] = [['own_index'], ['provider_a'], ['provider_b']];
    it('are the waves the first page asks: the own index alone when it fills the page', () => {
      const batches = [store(300), partner('provider_a', 100), partner('provider_b', 100)];
      expect(estimate({ batches, waves, limit: 25 }).providers_planned).toEqual(['own_index']);
    });

    it('and the next waves while the page is not full', () => {
      const batches = [
        store(10, { seen: { provider_a: [5, 5] } }),
        partner('provider_a', 30),
        partner('provider_b', 5),
      ];
      expect(estimate({ batches, waves, limit: 25 }).providers_planned).toEqual(['own_index', 'provider_a']);
      expect(estimate({ batches, waves, limit: 100 }).providers_planned).toEqual(ALL);
    });
  });

  describe('credits of one page', () => {
    it('a full page of new jobs costs the page: the least is no longer 0 when the account paid for nothing', () => {
      expect(estimate({ batches: [store(600)], limit: 100 }).credits_range).toEqual({ min: 100, max: 100 });
    });

    it('subtracts the matching jobs the account already paid for', () => {
      expect(estimate({ batches: [store(600, { paid: 30 })], limit: 100 }).credits_range).toEqual({
        min: 70,
        max: 100,
      });
      // all 24 matches paid, and the partner lists nothing beyond them: the same request costs nothing
      expect(
        estimate({
          batches: [store(24, { paid: 24, seen: { provider_a: [24, 24] } }), partner('provider_a', 24)],
          limit: 25,
        }).credits_range,
      ).toEqual({ min: 0, max: 0 });
      expect(estimate({ batches: [store(24, { paid: 20 })], limit: 25 }).credits_range).toEqual({ min: 4, max: 4 });
    });

    it('never above max_credits', () => {
      expect(estimate({ batches: [store(600)], limit: 100, maxCredits: 7 }).credits_range).toEqual({ min: 7, max: 7 });
      expect(estimate({ batches: [store(600, { paid: 95 })], limit: 100, maxCredits: 7 }).credits_range).toEqual({
        min: 5,
        max: 7,
      });
      expect(estimate({ batches: [store(600)], maxCredits: 0 }).credits_range).toEqual({ min: 0, max: 0 });
    });
  });
});
