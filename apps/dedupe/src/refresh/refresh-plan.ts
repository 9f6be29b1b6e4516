/**
 * The refresh planner's rules (pure). Every provider has two sequences of its own that keep its
 * part of the store true: its passes and its re-verification rounds. Each sequence never overlaps
 * itself, and no sequence waits for another, so a slow, failing or timing-out provider delays only
 * its own data: what moved at every other provider (and in the own crawler) reaches the store,
 * and through it the watches, within an interval. Their work follows the providers and the store,
 * never the watches (watches are matched from the changes they make).
 *
 * A provider's **pass** reads what moved there:
 * - a partner's `new_listings`: its postings since its listing lag and two intervals before the
 *   last pass that read its window whole (or before now, if that was this interval), so a posting
 *   that became visible while passes failed is still read once the provider answers again;
 * - the own crawler's `catalog_changes`: its openings that opened, changed or closed (with their
 *   reason) over the same window.
 *
 * A provider's **re-verification round** re-reads what the store holds of it, one bucket at a time:
 * - the own crawler: its whole `catalog`, in its round of bucket 0 (every `buckets` rounds, and
 *   the first of all): one it no longer lists (without a closure it could report) is closed then;
 * - a partner: the stored companies are split into `buckets` by a hash of their domain; each
 *   round re-verifies one bucket's companies of which it lists an open job, in batches of
 *   `batchSize` domains per listing (one call pages through many companies). Every job it lists
 *   is therefore re-verified within `buckets` of its rounds. The companies of open jobs the own
 *   crawler saw close are added to the round (their partners decide the closure), whatever the
 *   bucket.
 */
import type { ProviderSlug, RefreshScope, RefreshSequenceKind, RefreshSweepKind } from '@jobs/contracts';

export interface PlannedSweep {
  kind: RefreshSweepKind;
  provider: ProviderSlug;
  scope: RefreshScope;
  postedSince?: number;
  changedSince?: number;
}

export interface PassInput {
  provider: ProviderSlug;
  now: number;
  intervalMs: number;
  /** how late this provider shows a new posting or change */
  lagMs: number;
  /** when the provider's last pass that read its window whole started (epoch ms), or null */
  lastReadAt: number | null;
}

export interface RoundInput {
  provider: ProviderSlug;
  bucket: number;
  buckets: number;
  batchSize: number;
  /** the domains of this bucket's companies with an open job the provider lists (partners only) */
  domains: readonly string[];
}

/** A provider's pass: one sweep of what moved (a partner's new listings, the own crawler's change feed). */
export function planPass(input: PassInput): PlannedSweep {
  const window = input.lagMs + 2 * input.intervalMs;
  // a pass late by more than an interval (or after failed ones) reaches back to the last one that read
  const since = Math.min(input.now, (input.lastReadAt ?? input.now) + input.intervalMs) - window;
  if (input.provider === 'own_index') return { kind: 'catalog_changes', provider: 'own_index', scope: { key: 'catalog_changes', filters: {} }, changedSince: since };
  return { kind: 'new_listings', provider: input.provider, scope: { key: 'new_listings', filters: {} }, postedSince: since };
}

/** A provider's round: the own crawler's whole catalog on bucket 0, a partner's companies of the bucket in batches. */
export function planRound(input: RoundInput): PlannedSweep[] {
  if (input.provider === 'own_index') return input.bucket === 0 ? [{ kind: 'catalog', provider: 'own_index', scope: { key: 'catalog', filters: {} } }] : [];
  const domains = [...new Set(input.domains)].sort();
  const sweeps: PlannedSweep[] = [];
  for (let i = 0; i * input.batchSize < domains.length; i++) {
    const batch = domains.slice(i * input.batchSize, (i + 1) * input.batchSize);
    sweeps.push({ kind: 'companies', provider: input.provider, scope: { key: `companies:${input.bucket}/${input.buckets}:${i}`, filters: { company_domain_or: batch } } });
  }
  return sweeps;
}

/** The bucket after `previous` (a provider's first round takes bucket 0). */
export function nextBucket(previous: number | null, buckets: number): number {
  return previous === null ? 0 : (previous + 1) % buckets;
}

/** Where one provider's sequence stands: its last pass or round, if any. */
export interface SequenceState {
  kind: RefreshSequenceKind;
  provider: ProviderSlug;
  last: { startedAt: number; bucket: number | null; openSweeps: number } | null;
}

export type SequenceDecision =
  | { start: 'schedule' | 'request' }
  | { waiting: 'running' }
  /** on schedule at `dueAt` (epoch ms) */
  | { waiting: 'interval'; dueAt: number };

export interface DecisionRules {
  now: number;
  intervalMs: number;
  /** a run whose sweeps have not all ended this long after it started is over anyway (a sweep was lost) */
  staleMs: number;
  /** when the latest POST /admin/refresh arrived (epoch ms), or null */
  latestRequestAt: number | null;
}

/**
 * Whether a sequence starts now: never while its last run still has sweeps out (until that run is
 * stale); at once for a request that arrived after its last run started; else once an interval has
 * passed since that start (a little early is fine: timers drift).
 */
export function decide(state: SequenceState, rules: DecisionRules): SequenceDecision {
  const last = state.last;
  if (!last) return { start: rules.latestRequestAt === null ? 'schedule' : 'request' };
  if (last.openSweeps > 0 && rules.now - last.startedAt < rules.staleMs) return { waiting: 'running' };
  if (rules.latestRequestAt !== null && rules.latestRequestAt >= last.startedAt) return { start: 'request' };
  const dueAt = last.startedAt + rules.intervalMs;
  return rules.now >= dueAt - 250 ? { start: 'schedule' } : { waiting: 'interval', dueAt };
}

/**
 * The deadline of one refresh call to a provider: an interval, within bounds. A provider that does
 * not answer within it is cut off (the sweep ends incomplete, judging no absences) and read again
 * next time; the floor leaves a slow partner's several pages per call room at short intervals.
 */
export function refreshCallTimeoutMs(intervalMs: number): number {
  return Math.min(30_000, Math.max(5_000, intervalMs));
}
