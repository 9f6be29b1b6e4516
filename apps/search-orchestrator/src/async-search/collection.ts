/**
 * The rules of an async search's collection, as plain functions (no Nest, no Prisma): which
 * jobs of a chunk the search collects, when a failed chunk is tried again, what the search does
 * next, and how it ends. The use cases apply them inside the search's locked transaction.
 */
import type {
  AsyncSearchFinalStatus,
  AsyncSearchStatus,
  ChunkPosition,
  Filters,
  Job,
  ProviderSlug,
  SearchMetadata,
  WaterfallStrategy,
} from '@jobs/contracts';
import { providerProfile } from '@jobs/contracts';
import { matchesFilters } from '@jobs/job-filters';
import { COVERAGE_FIELDS, fieldCoverage } from '@jobs/search-metadata';
import { sourceCount } from '@jobs/waterfall';

/**
 * Records asked of a provider per chunk. 200 jobs, even of the largest, keep a chunk's messages
 * below Kafka's 1 MB, with as few round trips (fetch, merge, collect, charge) a search as that
 * allows; the fetcher asks a chunk's pages side by side.
 */
export const CHUNK_SIZE = 200;
/** Tries of one chunk (the first and two more) before its provider is given up: the search goes partial. */
export const MAX_CHUNK_ATTEMPTS = 3;
/** A running search with no step for this long is re-driven by the sweeper (its chunks and charges asked again). */
export const STALL_MS = 30_000;
/**
 * A search with no step for this long is re-driven even though a hop still holds messages for it (one that never
 * drains).
 */
export const STUCK_MS = 10 * 60_000;

export type LegState = 'fetching' | 'paused' | 'exhausted' | 'failed' | 'stopped';
export type FailureCode = 'provider_error' | 'provider_timeout';

export interface LegView {
  provider: ProviderSlug;
  wave: number;
  state: LegState;
  failure: FailureCode | null;
  matched: number;
  duplicatesMerged: number;
}

export interface MatchContext {
  filters: Filters;
  strategy: WaterfallStrategy;
  minSources: number;
  /** epoch ms `posted_within_days` counts back from */
  asOf: number;
}

export const FINAL_STATUSES: readonly AsyncSearchStatus[] = ['completed', 'partial', 'failed'];
export const isFinal = (status: string): boolean => (FINAL_STATUSES as readonly string[]).includes(status);

/**
 * The first position of a provider: its first page; the own index answers from its store (the
 * refresh pipeline keeps the store current with the crawler's sweeps, so no search waits for it).
 */
export { firstPosition } from '@jobs/waterfall';

/**
 * The jobs of a chunk that match the search, each once, in the chunk's order: every filter is
 * checked again (providers filter loosely), and `consensus` keeps jobs seen by `min_sources`
 * providers (as the snapshot of this chunk shows them).
 */
export function matchingJobs(jobs: readonly Job[], context: MatchContext): Job[] {
  const minSources = context.strategy === 'consensus' ? context.minSources : 1;
  const seen = new Set<string>();
  return jobs.filter((job) => {
    if (seen.has(job.id)) return false;
    seen.add(job.id);
    return matchesFilters(job, context.filters, context.asOf) && sourceCount(job) >= minSources;
  });
}

/** What a chunk adds to a search: its matching jobs the search does not hold yet, at most `room`. */
export function newCandidates(matching: readonly Job[], known: ReadonlySet<string>, room: number): Job[] {
  return matching.filter((job) => !known.has(job.id)).slice(0, Math.max(0, room));
}

/** A failed or timed-out chunk is asked again until its tries run out; then its provider failed. */
export function afterFailedChunk(attempt: number): 'retry' | 'give_up' {
  return attempt + 1 < MAX_CHUNK_ATTEMPTS ? 'retry' : 'give_up';
}

/**
 * How long after a failed try a chunk is asked again: a little more than the provider's circuit
 * breaker stays open, so the next try meets a breaker that lets a call through. Asked at once,
 * every try would meet the same open breaker within a second, and a partner's ten-second blip
 * would cost a search running for minutes all of that partner's jobs.
 */
export function chunkRetryDelayMs(provider: ProviderSlug): number {
  return Math.round(providerProfile(provider).calls.breakerCooldownMs * 1.2);
}

/** Where a leg goes after an ok chunk. */
export function legAfterChunk(input: {
  next: ChunkPosition | null;
  onHold: boolean;
  roomLeft: number;
  done: boolean;
}): LegState {
  if (input.next === null) return 'exhausted';
  if (input.done) return 'stopped';
  if (input.onHold || input.roomLeft <= 0) return 'paused';
  return 'fetching';
}

export interface Progress {
  status: AsyncSearchStatus;
  limit: number;
  jobsFound: number;
  capReached: boolean;
  /** result rows sent to billing, not answered yet */
  pending: number;
  /** result rows waiting for credits */
  held: number;
  wave: number;
  waves: number;
  legs: readonly LegView[];
}

export type Step =
  | { kind: 'wait' }
  | { kind: 'drive'; providers: ProviderSlug[] }
  | { kind: 'next_wave' }
  | { kind: 'finish'; status: AsyncSearchFinalStatus };

/**
 * What a search does after a step. It ends once it has `limit` jobs or reached `max_credits`
 * (after billing answered every batch in flight), or when its last wave's providers are all
 * exhausted or failed; `cheapest_first` asks its next wave (the partners) only while it has
 * fewer than `limit` jobs. Legs paused for lack of room are asked again when room comes back. An
 * on_hold search waits for credits, unless it reached `max_credits`.
 */
export function nextStep(p: Progress): Step {
  if (isFinal(p.status)) return { kind: 'wait' };
  // on hold for credits, unless max_credits ended it meanwhile (a batch charged beside the one that
  // ran out): nothing more may be charged, so it finishes once billing answered the rest
  if (p.status === 'on_hold' && !p.capReached) return { kind: 'wait' };
  const done = p.capReached || p.jobsFound >= p.limit;
  if (done) return p.pending > 0 ? { kind: 'wait' } : { kind: 'finish', status: finalStatus(p.legs, p.jobsFound) };
  const room = p.limit - p.jobsFound - p.pending - p.held;
  const paused = p.legs.filter((leg) => leg.state === 'paused');
  if (paused.length > 0 && room > 0) return { kind: 'drive', providers: paused.map((leg) => leg.provider) };
  if (p.pending > 0 || p.legs.some((leg) => leg.state === 'fetching' || leg.state === 'paused'))
    return { kind: 'wait' };
  if (p.wave < p.waves - 1) return { kind: 'next_wave' };
  return { kind: 'finish', status: finalStatus(p.legs, p.jobsFound) };
}

/**
 * `completed` when no provider failed, `partial` when at least one failed or timed out, and
 * `failed` when every provider asked failed and nothing was collected (the search cannot finish).
 */
export function finalStatus(legs: readonly LegView[], jobsFound: number): AsyncSearchFinalStatus {
  const failed = legs.filter((leg) => leg.failure !== null);
  if (legs.length > 0 && failed.length === legs.length && jobsFound === 0) return 'failed';
  return failed.length > 0 ? 'partial' : 'completed';
}

/** Per coverage field, how many of these jobs have a value (summed as jobs are collected). */
export function coverageCounts(jobs: readonly Job[], into: Record<string, number> = {}): Record<string, number> {
  const counts: Record<string, number> = { ...into };
  for (const job of jobs) {
    const one = fieldCoverage([job]);
    for (const field of COVERAGE_FIELDS) counts[field] = (counts[field] ?? 0) + (one[field] ?? 0);
  }
  return counts;
}

export interface MetadataInput {
  requestId: string;
  legs: readonly LegView[];
  /** collected jobs per provider that brought them first */
  contributions: Partial<Record<ProviderSlug, number>>;
  coverage: Record<string, number>;
  jobsFound: number;
  creditsCharged: number;
  jobsAlreadyPaid: number;
  creditsRemaining: number;
  latencyMs: number;
}

/** The finished search's metadata, like a sync search's, over every job it collected. */
export function searchMetadata(input: MetadataInput): SearchMetadata {
  const failed = input.legs
    .filter((leg) => leg.failure !== null)
    .map((leg) => ({ provider: leg.provider, code: leg.failure! }));
  // a provider that failed after some chunks still contributed the jobs collected from it first:
  // the counts add up to jobs_found; one that failed before contributing is not listed
  const contributions: Partial<Record<ProviderSlug, number>> = {};
  for (const leg of input.legs) {
    const count = input.contributions[leg.provider] ?? 0;
    if (leg.failure === null || count > 0) contributions[leg.provider] = count;
  }
  const field_coverage: Record<string, number> = {};
  for (const field of COVERAGE_FIELDS)
    field_coverage[field] =
      input.jobsFound === 0 ? 0 : Math.round(((input.coverage[field] ?? 0) / input.jobsFound) * 1000) / 1000;
  return {
    request_id: input.requestId,
    status: failed.length > 0 ? 'partial' : 'complete',
    credits_charged: input.creditsCharged,
    jobs_already_paid: input.jobsAlreadyPaid,
    // dedupe's count per chunk: records merged into a job that existed before them (sightings included)
    duplicates_merged: input.legs.reduce((sum, leg) => sum + leg.duplicatesMerged, 0),
    credits_remaining: input.creditsRemaining,
    providers: {
      tried: input.legs.map((leg) => leg.provider),
      hit: input.legs.filter((leg) => leg.matched > 0).map((leg) => leg.provider),
      failed,
      contributions,
    },
    field_coverage,
    latency_ms: Math.max(0, Math.round(input.latencyMs)),
  };
}

/** The `search.completed` event id: derived from the search id, so a redelivered finish re-sends the same event. */
export const completionEventId = (searchId: string): string => `evt_${searchId}`;
