import type { DryRunEstimate, Filters, ProviderSlug, WaterfallStrategy } from '@jobs/contracts';
import { partnersApplyAll } from '@jobs/job-filters';
import type { ProviderBatch } from './search-page.js';

/** What a dry run learned: the store's count (own index leg) and each partner's reported total. */
export interface EstimateInput {
  /** Every provider the search would ask, in priority order. */
  providersPlanned: readonly ProviderSlug[];
  /**
   * The plan's waves (`WaterfallPlan.waves`): the first page asks the next only while it has fewer than `limit` jobs.
   */
  waves?: readonly (readonly ProviderSlug[])[];
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
 * Below this many jobs a dry run answers "0 to SMALL_COUNT" (or 0 to 0 when nothing matches and
 * no filter reads a job's fields): an exact small count would tell, for free, whether one job
 * the filters isolate has a salary, seniority, country or posting date (docs/security.md).
 */
export const SMALL_COUNT = 10;

/** Filters on what a job says about itself, beyond the title, company and family that name it. */
function readsJobFields(filters: Filters): boolean {
  const naming = new Set(['title_or', 'title_not', 'company_domain_or', 'job_family_or', 'include_closed']);
  return Object.entries(filters).some(([name, value]) => value !== undefined && value !== null && !naming.has(name));
}

/** Slack on the most for jobs that open or merge while the pages are walked. */
const WALK_SLACK = (n: number) => Math.ceil(n * 0.05) + 2;

/**
 * The free `dry_run` answer, independent of `limit`. Following `next_cursor` to the end of a search
 * returns every job of the store that matches (the own index leg pages through all of it) and
 * every matching posting of each planned partner, each canonical job once, so it returns the
 * store's matching jobs and the partners' postings the store does not hold yet:
 *
 * - each partner's total counts the postings matching the part of the filters it applies
 *   (`partnerAppliedFilters`); the store knows how many of its jobs that partner saw under the
 *   same part (`by_provider[].applied`): the total beyond that is what the partner lists that the
 *   store does not hold, of which the whole filter keeps the share it keeps of that partner's
 *   stored jobs. The partners' postings overlap (most openings are on two to four sources), and
 *   the store measures exactly how much: their stored postings are one job each.
 * - min: the store's matching jobs (those with `min_sources` sources for `consensus`), or a
 *   partner's total when it is larger and counts exactly what our filters keep (the union is at
 *   least its largest part);
 * - max: the store's matching jobs plus what every partner lists beyond the store, as if none of
 *   those were one opening, and a slack for jobs that open while the pages are walked.
 *
 * Without the own index planned, or a store count without per-partner figures, a partner's whole
 * total counts as beyond the store. A partner that failed or reported no total adds nothing.
 * Counts below `SMALL_COUNT` are not told exactly.
 *
 * `providers_planned`: the providers the first page asks, wave after wave (`waves`) until the jobs
 * expected so far reach `limit`.
 *
 * Credits, for the one page of `limit` jobs the same request would answer: at most a full page,
 * the jobs not yet paid for and `max_credits`; at least the page less every matching job the
 * account already paid for (when the store counted them: without the own index planned nothing
 * is known of what was paid, so the least is 0). For `consensus` the least is 0: its first page
 * keeps the corroborated jobs among what each source's first page holds, and is not filled
 * further, so it may hold none of the store's corroborated jobs however many there are.
 */
export function estimateFromCounts(input: EstimateInput): DryRunEstimate['estimate'] {
  const own = input.providersPlanned.includes('own_index')
    ? input.batches.find((b) => b.provider === 'own_index' && b.outcome === 'ok')?.storeCount
    : undefined;
  const consensus = input.strategy === 'consensus';
  const exact = !consensus && partnersApplyAll(input.filters);
  const partners = input.providersPlanned
    .filter((provider) => provider !== 'own_index')
    .flatMap((provider) => {
      const total = input.batches.find((b) => b.provider === provider && b.outcome === 'ok')?.total;
      return total === undefined ? [] : [{ provider, total }];
    });
  const beyondOf = (provider: ProviderSlug): number => {
    const total = partners.find((p) => p.provider === provider)?.total ?? 0;
    const seen = own?.by_provider?.find((p) => p.provider === provider);
    if (!own || !seen) return total;
    const unknown = Math.max(0, total - seen.applied);
    const applied = seen.applied > 0 ? seen : { matching: own.matching, applied: own.applied ?? 0 };
    const kept = exact || applied.applied === 0 ? 1 : applied.matching / applied.applied;
    return unknown * kept;
  };
  const beyondStore = partners.reduce((sum, { provider }) => sum + beyondOf(provider), 0);
  const storeKept = own ? (consensus ? own.corroborated : own.matching) : 0;
  // the first page asks wave after wave until it has `limit` jobs
  const planned: ProviderSlug[] = [];
  let found = 0;
  for (const wave of input.waves ?? [input.providersPlanned]) {
    if (planned.length > 0 && found >= input.limit) break;
    planned.push(...wave);
    for (const provider of wave) found += provider === 'own_index' ? storeKept : beyondOf(provider);
  }
  const min = Math.max(storeKept, exact ? Math.max(0, ...partners.map((p) => p.total)) : 0);
  const beyond = Math.ceil(beyondStore);
  const max = Math.max(min, (own?.matching ?? 0) + beyond + (beyond > 0 || !own ? WALK_SLACK(min + beyond) : 0));
  const range = coarse({ min, max }, input.filters);

  const cap = input.maxCredits ?? Number.POSITIVE_INFINITY;
  // a small count's credits would tell it: as little is said of them
  if (range.max !== max) return answer(range, { min: 0, max: Math.min(input.limit, range.max, cap) });
  const paid = own?.paid ?? 0;
  const creditsMax = Math.min(input.limit, Math.max(0, max - paid), cap);
  const creditsMin = own && !consensus ? Math.min(Math.max(0, Math.min(input.limit, min) - paid), creditsMax) : 0;
  return answer(range, { min: creditsMin, max: creditsMax });

  function answer(
    jobs: { min: number; max: number },
    credits: { min: number; max: number },
  ): DryRunEstimate['estimate'] {
    return {
      expected_unique_jobs_range: jobs,
      providers_planned: planned,
      credits_range: credits,
    };
  }
}

/** A range below `SMALL_COUNT` as "fewer than that", unless nothing matches filters that read no job's fields. */
function coarse(range: { min: number; max: number }, filters: Filters): { min: number; max: number } {
  if (range.max >= SMALL_COUNT) return range;
  if (range.max === 0 && !readsJobFields(filters)) return range;
  return { min: 0, max: SMALL_COUNT };
}
