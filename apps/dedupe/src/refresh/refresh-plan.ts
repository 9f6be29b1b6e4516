/**
 * The refresh planner's rules (pure): the sweeps of one pass. The work of a pass follows the
 * providers and the store, never the watches (watches are matched from the changes it makes).
 *
 * - `catalog`: the own crawler's whole listing, in the pass of bucket 0 (every `buckets` passes,
 *   and the first pass of all): every job it lists is re-verified within `buckets` passes, and
 *   one it no longer lists (without a closure it could report) is closed then.
 * - `catalog_changes`: in the other passes, the own crawler's change feed since its lag and two
 *   intervals before now (or since the last pass, if that was longer ago): its openings that
 *   opened, changed or closed (with their reason), so the own index's part of the market is
 *   current within one pass while a pass reads only what moved.
 * - `new_listings`: every partner's postings since `now - (its listing lag + 2 intervals)`: a
 *   posting that became visible since the last pass (or the one before, if one was missed) is
 *   in it, so new openings and re-listings anywhere in the market reach the store, and through it
 *   the watches, within one pass.
 * - `companies`: the stored companies are split into `buckets` by a hash of their domain; each
 *   pass re-verifies one bucket with every partner that lists an open job of them, in batches of
 *   `batchSize` domains per listing (one call pages through many companies). Every stored job is
 *   therefore re-verified within `buckets` passes. The companies of open jobs the own crawler saw
 *   close are added to the pass (their partners decide the closure), whatever their bucket.
 */
import type { ProviderSlug, RefreshScope, RefreshSweepKind } from '@jobs/contracts';

export interface PlannedSweep {
  kind: RefreshSweepKind;
  provider: ProviderSlug;
  scope: RefreshScope;
  postedSince?: number;
  changedSince?: number;
}

export interface PassInput {
  now: number;
  intervalMs: number;
  /** how late each partner shows a new posting */
  lagMs: Readonly<Partial<Record<ProviderSlug, number>>>;
  partners: readonly ProviderSlug[];
  /** when the last pass started (epoch ms), or null for the first pass */
  lastPassAt: number | null;
  bucket: number;
  buckets: number;
  batchSize: number;
  /** per partner, the domains of this bucket's companies with an open job it lists */
  domainsByProvider: ReadonlyMap<ProviderSlug, readonly string[]>;
}

export function planPass(input: PassInput): PlannedSweep[] {
  const sweeps: PlannedSweep[] = input.partners.map((provider) => ({
    kind: 'new_listings' as const,
    provider,
    scope: { key: 'new_listings', filters: {} },
    postedSince: input.now - ((input.lagMs[provider] ?? 0) + 2 * input.intervalMs),
  }));
  if (input.bucket === 0 || input.lastPassAt === null) sweeps.push({ kind: 'catalog', provider: 'own_index', scope: { key: 'catalog', filters: {} } });
  else {
    const window = (input.lagMs.own_index ?? 0) + 2 * input.intervalMs;
    // a pass late by more than an interval reaches back to the one before it
    const changedSince = Math.min(input.now, input.lastPassAt + input.intervalMs) - window;
    sweeps.push({ kind: 'catalog_changes', provider: 'own_index', scope: { key: 'catalog_changes', filters: {} }, changedSince });
  }
  for (const provider of input.partners) {
    const domains = [...(input.domainsByProvider.get(provider) ?? [])].sort();
    for (let i = 0; i * input.batchSize < domains.length; i++) {
      const batch = domains.slice(i * input.batchSize, (i + 1) * input.batchSize);
      sweeps.push({ kind: 'companies', provider, scope: { key: `companies:${input.bucket}/${input.buckets}:${i}`, filters: { company_domain_or: batch } } });
    }
  }
  return sweeps;
}

/** The bucket after `previous` (the first pass takes bucket 0). */
export function nextBucket(previous: number | null, buckets: number): number {
  return previous === null ? 0 : (previous + 1) % buckets;
}
