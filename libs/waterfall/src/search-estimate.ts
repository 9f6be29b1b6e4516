import type { DryRunEstimate, Filters, ProviderSlug, WaterfallStrategy } from '@jobs/contracts';
import type { ProviderBatch } from './search-page.js';

/** What a dry run learned: the store's count (own index leg) and each partner's reported total. */
export interface EstimateInput {
  /** Every provider the search would ask, in priority order. */
  providersPlanned: readonly ProviderSlug[];
  /** The dry run's batches: the own index's with `storeCount`, the partners' with `total` when they said. */
  batches: readonly ProviderBatch[];
  filters: Filters;
  strategy: WaterfallStrategy;
  minSources: number;
  /** The page the same request without `dry_run` would answer. */
  limit: number;
  maxCredits: number | null;
}

/**
 * Filters every partner applies itself (the adapters send them as query parameters): a partner's
 * reported total then counts what our own check of every filter keeps too. Any other filter
 * (several countries, seniority, salary, `posted_within_days`, whose partners' posted dates are
 * not our first sighting...) is checked only after the fetch, so the total may count more.
 */
function partnersFilterAsWeDo(filters: Filters): boolean {
  const pushedDown = new Set(['title_or', 'company_domain_or', 'remote', 'include_closed']);
  for (const [name, value] of Object.entries(filters)) {
    if (value === undefined || value === null) continue;
    if (name === 'country_code_or' && Array.isArray(value) && value.length === 1) continue;
    if (!pushedDown.has(name)) return false;
  }
  return true;
}

/**
 * The free `dry_run` answer, independent of `limit`. Following `next_cursor` to the end of a search
 * returns every job of the store that matches (the own index leg pages through all of it) and
 * every matching posting of each planned partner, each canonical job once. So:
 *
 * - min: the store's matching jobs (those with `min_sources` sources for `consensus`), or a
 *   partner's total when it is larger and counts exactly what our filters keep (the union is at
 *   least its largest part);
 * - max: the store's matching jobs plus every partner's total, as if none of their postings were
 *   a job the store or another partner already has.
 *
 * For jobs only the own index lists, partners report none and the range is the store's count. A
 * partner that failed or reported no total adds nothing (its jobs are unknown).
 *
 * Credits, for the one page of `limit` jobs the same request would answer: at most a full page,
 * the jobs not yet paid for and `max_credits`; at least the page less every matching job the
 * account already paid for (when the store counted them: without the own index planned nothing
 * is known of what was paid, so the least is 0).
 */
export function estimateFromCounts(input: EstimateInput): DryRunEstimate['estimate'] {
  const own = input.providersPlanned.includes('own_index')
    ? input.batches.find((b) => b.provider === 'own_index' && b.outcome === 'ok')?.storeCount
    : undefined;
  const consensus = input.strategy === 'consensus';
  const partnerTotals = input.providersPlanned
    .filter((provider) => provider !== 'own_index')
    .map((provider) => input.batches.find((b) => b.provider === provider && b.outcome === 'ok')?.total)
    .filter((total): total is number => total !== undefined);
  const exactPartners = !consensus && partnersFilterAsWeDo(input.filters);
  const storeKept = own ? (consensus ? own.corroborated : own.matching) : 0;
  const min = Math.max(storeKept, exactPartners ? Math.max(0, ...partnerTotals) : 0);
  const max = Math.max(min, (own?.matching ?? 0) + partnerTotals.reduce((sum, total) => sum + total, 0));

  const paid = own?.paid ?? 0;
  const cap = input.maxCredits ?? Number.POSITIVE_INFINITY;
  const creditsMax = Math.min(input.limit, Math.max(0, max - paid), cap);
  const creditsMin = own ? Math.min(Math.max(0, Math.min(input.limit, min) - paid), creditsMax) : 0;
  return {
    expected_unique_jobs_range: { min, max },
    providers_planned: [...input.providersPlanned],
    credits_range: { min: creditsMin, max: creditsMax },
  };
}
