/**
 * The refresh planner's rules (pure). Two sequences keep the store true, each never overlapping
 * itself and neither waiting for the other, so what moved in the market reaches the store (and
 * through it the watches) within seconds of a pass starting, however long re-verification takes.
 * Their work follows the providers and the store, never the watches (watches are matched from
 * the changes they make).
 *
 * A **pass** reads what moved:
 * - `new_listings`: every partner's postings since `now - (its listing lag + 2 intervals)`: a
 *   posting that became visible since the last pass (or the one before, if one was missed) is
 *   in it, so new openings and re-listings anywhere in the market reach the store in one pass.
 * - `catalog_changes`: the own crawler's change feed since its lag and two intervals before now
 *   (or since the last pass, if that was longer ago): its openings that opened, changed or
 *   closed (with their reason), so the own index's part of the market is current within a pass.
 *
 * A **re-verification round** re-reads what the store holds, one bucket at a time:
 * - `catalog`: the own crawler's whole listing, in the round of bucket 0 (every `buckets`
 *   rounds, and the first of all): one it no longer lists (without a closure it could report)
 *   is closed then.
 * - `companies`: the stored companies are split into `buckets` by a hash of their domain; each
 *   round re-verifies one bucket with every partner that lists an open job of them, in batches
 *   of `batchSize` domains per listing (one call pages through many companies). Every stored
 *   job is therefore re-verified within `buckets` rounds. The companies of open jobs the own
 *   crawler saw close are added to the round (their partners decide the closure), whatever
 *   their bucket.
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
  /** how late each provider shows a new posting or change */
  lagMs: Readonly<Partial<Record<ProviderSlug, number>>>;
  partners: readonly ProviderSlug[];
  /** when the last pass started (epoch ms), or null for the first pass */
  lastPassAt: number | null;
}

export interface RoundInput {
  partners: readonly ProviderSlug[];
  bucket: number;
  buckets: number;
  batchSize: number;
  /** per partner, the domains of this bucket's companies with an open job it lists */
  domainsByProvider: ReadonlyMap<ProviderSlug, readonly string[]>;
}

/** The sweeps of a pass: every partner's new listings and the own crawler's change feed. */
export function planPass(input: PassInput): PlannedSweep[] {
  const sweeps: PlannedSweep[] = input.partners.map((provider) => ({
    kind: 'new_listings' as const,
    provider,
    scope: { key: 'new_listings', filters: {} },
    postedSince: input.now - ((input.lagMs[provider] ?? 0) + 2 * input.intervalMs),
  }));
  const window = (input.lagMs.own_index ?? 0) + 2 * input.intervalMs;
  // a pass late by more than an interval reaches back to the one before it
  const changedSince = Math.min(input.now, (input.lastPassAt ?? input.now) + input.intervalMs) - window;
  sweeps.push({ kind: 'catalog_changes', provider: 'own_index', scope: { key: 'catalog_changes', filters: {} }, changedSince });
  return sweeps;
}

/** The sweeps of a re-verification round: the whole catalog on bucket 0, the bucket's companies in batches. */
export function planRound(input: RoundInput): PlannedSweep[] {
  const sweeps: PlannedSweep[] = input.bucket === 0 ? [{ kind: 'catalog', provider: 'own_index', scope: { key: 'catalog', filters: {} } }] : [];
  for (const provider of input.partners) {
    const domains = [...(input.domainsByProvider.get(provider) ?? [])].sort();
    for (let i = 0; i * input.batchSize < domains.length; i++) {
      const batch = domains.slice(i * input.batchSize, (i + 1) * input.batchSize);
      sweeps.push({ kind: 'companies', provider, scope: { key: `companies:${input.bucket}/${input.buckets}:${i}`, filters: { company_domain_or: batch } } });
    }
  }
  return sweeps;
}

/** The bucket after `previous` (the first round takes bucket 0). */
export function nextBucket(previous: number | null, buckets: number): number {
  return previous === null ? 0 : (previous + 1) % buckets;
}
