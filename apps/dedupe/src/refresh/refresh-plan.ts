/**
 * The refresh planner's rules (pure). Every provider has two sequences of its own that keep its
 * part of the store true: its passes and its re-verification rounds. Each sequence never overlaps
 * itself, and no sequence waits for another, so a slow, failing or timing-out provider delays only
 * its own data: what moved at every other provider (and in the own crawler) reaches the store,
 * and through it the watches, within an interval. Their work follows the providers and the store,
 * never the watches (watches are matched from the changes they make).
 *
 * A provider's **pass** reads what moved there:
 * - a partner's `new_listings`: the postings it listed since two intervals before the last pass
 *   that read its window whole (or before now, if that was this interval), whatever their posting
 *   date, so a posting listed while passes failed is still read once the provider answers again,
 *   and one that a partner lists days after the employer posted it is read when it lists it;
 * - the own crawler's `catalog_changes`: its openings that opened, changed or closed (with their
 *   reason) over the same window, reaching back its lag too (its feed dates a change when it
 *   happened, and shows it that late).
 *
 * A provider's **re-verification round** re-reads what the store holds of it, one bucket at a time.
 * The freshness bound is `buckets` intervals between two reads of a job; a job may be read at the
 * start of one round and at the end of a later one, so the store is split into `buckets - 1`
 * buckets (`roundCycle`): a job is read again `buckets - 1` rounds later, within the round's own
 * interval, so within the bound while every round ends within its interval. A round is due a
 * little before its interval ends (`roundDueAt`), which the fetcher paces it to meet.
 * - the own crawler's first round of all: its whole `catalog` (a fresh store takes in every
 *   opening it lists); after that, as a partner's. A whole catalog of a large store is one read
 *   of minutes, over which the listing moves (never read whole, so its absences are never
 *   judged), and one round's spike of work;
 * - a provider: the stored companies are split by a hash of their domain; each round re-verifies
 *   one bucket's companies of which it lists an open job (the own crawler's closed openings come
 *   with their reason), in sweeps of about
 *   `ROUND_SWEEP_LISTINGS` of its stored listings (at most `ROUND_SWEEP_DOMAINS` domains, one
 *   call paging through them all), so a round at any store size is sweeps of one size, the
 *   companies whose listings it saw longest ago first (each job keeps its place in the round from
 *   one cycle to the next). Added to the round whatever their bucket: the companies of open jobs
 *   the own crawler saw close (their partners decide the closure), and those its rounds owe a
 *   read (owed-reads.ts: a sweep that did not read its scope whole, a job that moved to another
 *   company after that company's round): waiting for their bucket's next round would leave them
 *   older than the bound. Listings at a company the store knows no
 *   domain of (a provider that sends none, and nobody else lists there) cannot be named by
 *   domain: they are bucketed by their own id and read by id (`listings` sweeps), by the same
 *   rules.
 */
import type { ProviderSlug, RefreshScope, RefreshSequenceKind, RefreshSweepKind } from '@jobs/contracts';

export interface PlannedSweep {
  kind: RefreshSweepKind;
  provider: ProviderSlug;
  scope: RefreshScope;
  listedSince?: number;
  changedSince?: number;
}

export interface PassInput {
  provider: ProviderSlug;
  now: number;
  intervalMs: number;
  /**
   * how late this provider shows a new posting or change: the own crawler's change feed dates a
   * change when it happened, so its window reaches back this far; a partner's window is by when it
   * listed a posting, which already includes its lag
   */
  lagMs: number;
  /** when the provider's last pass that read its window whole started (epoch ms), or null */
  lastReadAt: number | null;
}

/**
 * Stored listings a partner's round sweep re-reads, about: a part or two of the fetcher's reading, one short merge
 * each.
 */
export const ROUND_SWEEP_LISTINGS = 200;
/** Company domains of one round sweep at most (one `company_domain_or` listing pages through them all). */
export const ROUND_SWEEP_DOMAINS = 100;
/** Listings one `listings` sweep reads by id: a few parallel reads of one short burst each. */
export const ROUND_SWEEP_LISTING_IDS = 50;
/** A round is due this share of an interval before the interval ends: room for the jitter of starts and sweeps. */
export const ROUND_DUE_EARLY = 0.03;

/** One company of a partner's round: what the store holds of the provider's listings there. */
export interface RoundDomain {
  domain: string;
  /** the provider's listed sources of open jobs at the company */
  listings: number;
  /** when the provider last saw the oldest of them (epoch ms) */
  oldestSeenAt: number;
}

/** One listing of a partner's round read by its id (its company has no domain). */
export interface RoundListing {
  providerJobId: string;
  /** when the provider last saw it (epoch ms) */
  seenAt: number;
}

export interface RoundInput {
  provider: ProviderSlug;
  bucket: number;
  /** the provider has had no round yet (the own crawler's reads its whole catalog) */
  firstRound?: boolean;
  /** buckets of the cycle (`roundCycle`) */
  cycle: number;
  /** the companies of this round: the bucket's, and those added to it */
  domains: readonly RoundDomain[];
  /** the listings of this round read by id: the bucket's, and those added to it */
  listings?: readonly RoundListing[];
  /** listings per sweep, about (ROUND_SWEEP_LISTINGS) */
  sweepListings?: number;
  /** domains per sweep at most (ROUND_SWEEP_DOMAINS) */
  sweepDomains?: number;
}

/** A provider's pass: one sweep of what moved (a partner's new listings, the own crawler's change feed). */
export function planPass(input: PassInput): PlannedSweep {
  const window = (input.provider === 'own_index' ? input.lagMs : 0) + 2 * input.intervalMs;
  // a pass late by more than an interval (or after failed ones) reaches back to the last one that read
  const since = Math.min(input.now, (input.lastReadAt ?? input.now) + input.intervalMs) - window;
  if (input.provider === 'own_index')
    return {
      kind: 'catalog_changes',
      provider: 'own_index',
      scope: { key: 'catalog_changes', filters: {} },
      changedSince: since,
    };
  return {
    kind: 'new_listings',
    provider: input.provider,
    scope: { key: 'new_listings', filters: {} },
    listedSince: since,
  };
}

/**
 * A provider's round: the own crawler's whole catalog in its first round; else its companies in
 * sweeps of about `sweepListings` stored listings and at most `sweepDomains` domains (a company
 * with more listings has a sweep of its own), the companies it saw longest ago first; then the
 * listings read by id, `ROUND_SWEEP_LISTING_IDS` a sweep, those seen longest ago first.
 */
export function planRound(input: RoundInput): PlannedSweep[] {
  if (input.provider === 'own_index' && input.firstRound)
    return [{ kind: 'catalog', provider: 'own_index', scope: { key: 'catalog', filters: {} } }];
  const maxListings = input.sweepListings ?? ROUND_SWEEP_LISTINGS;
  const maxDomains = input.sweepDomains ?? ROUND_SWEEP_DOMAINS;
  const byDomain = new Map<string, RoundDomain>();
  for (const d of input.domains) {
    const seen = byDomain.get(d.domain);
    byDomain.set(
      d.domain,
      seen
        ? {
            domain: d.domain,
            listings: Math.max(seen.listings, d.listings),
            oldestSeenAt: Math.min(seen.oldestSeenAt, d.oldestSeenAt),
          }
        : d,
    );
  }
  const domains = [...byDomain.values()].sort(
    (a, b) => a.oldestSeenAt - b.oldestSeenAt || (a.domain < b.domain ? -1 : 1),
  );
  const batches: string[][] = [];
  let batch: string[] = [];
  let listings = 0;
  for (const d of domains) {
    if (batch.length > 0 && (listings + d.listings > maxListings || batch.length >= maxDomains)) {
      batches.push(batch);
      batch = [];
      listings = 0;
    }
    batch.push(d.domain);
    listings += d.listings;
  }
  if (batch.length > 0) batches.push(batch);
  const companies = batches.map((domains, i): PlannedSweep => ({
    kind: 'companies',
    provider: input.provider,
    scope: { key: `companies:${input.bucket}/${input.cycle}:${i}`, filters: { company_domain_or: domains } },
  }));
  return [...companies, ...listingSweeps(input)];
}

function listingSweeps(input: RoundInput): PlannedSweep[] {
  const ids = [...new Map((input.listings ?? []).map((l) => [l.providerJobId, l])).values()]
    .sort((a, b) => a.seenAt - b.seenAt || (a.providerJobId < b.providerJobId ? -1 : 1))
    .map((l) => l.providerJobId);
  const sweeps: PlannedSweep[] = [];
  for (let i = 0; i * ROUND_SWEEP_LISTING_IDS < ids.length; i++) {
    const key = `listings:${input.bucket}/${input.cycle}:${i}`;
    const listingIds = ids.slice(i * ROUND_SWEEP_LISTING_IDS, (i + 1) * ROUND_SWEEP_LISTING_IDS);
    sweeps.push({ kind: 'listings', provider: input.provider, scope: { key, filters: {}, listing_ids: listingIds } });
  }
  return sweeps;
}

/**
 * Buckets of the store, one per round: a job read at a round's start is read again within `buckets` intervals (at least
 * one bucket).
 */
export function roundCycle(buckets: number): number {
  return Math.max(1, buckets - 1);
}

/** When a round started at `startedAt` should have ended (epoch ms): a little before its interval ends. */
export function roundDueAt(startedAt: number, intervalMs: number): number {
  return startedAt + Math.round(intervalMs * (1 - ROUND_DUE_EARLY));
}

/** The bucket after `previous` in a cycle of `cycle` buckets (a provider's first round takes bucket 0). */
export function nextBucket(previous: number | null, cycle: number): number {
  return previous === null ? 0 : (previous + 1) % cycle;
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

/** A registered board as the planner reads it (crawler_boards with its last good read's validators). */
export interface RegisteredBoard {
  ats: PlannedBoard['ats'];
  board: string;
  baseUrl: string;
  companyDomain: string;
  companyName: string;
  validators: NonNullable<PlannedBoard['validators']>;
}

type PlannedBoard = NonNullable<RefreshScope['board']>;

/**
 * The own crawler's board sweeps of a pass: every registered board, read whole once a pass (one
 * request each; an unchanged board answers 304 or the same body and costs next to nothing).
 */
export function planBoardSweeps(boards: readonly RegisteredBoard[]): PlannedSweep[] {
  return boards.map((b) => ({
    kind: 'board',
    provider: 'own_index',
    scope: {
      key: `board:${b.ats}/${b.board}`,
      filters: {},
      board: {
        ats: b.ats,
        board: b.board,
        base_url: b.baseUrl,
        company_domain: b.companyDomain,
        company_name: b.companyName,
        ...(Object.keys(b.validators).length > 0 ? { validators: b.validators } : {}),
      },
    },
  }));
}
