/**
 * The freshness bound of one provider's re-verification rounds (pure). A provider's rounds split
 * the stored companies (and listings at companies without a domain) into `buckets - 1` buckets,
 * one per round, so a job read at the start of one round is read again by the
 * end of the round `buckets - 1` rounds later: within `buckets` intervals (the promise) while
 * every round ends within its interval. A round starts once the last one ended and an interval
 * passed since that one started: a round that outlasts the interval delays the next one, and
 * rounds then run back to back, each as long as it takes. The promise holds when the recent
 * rounds fitted and the provider's oldest listing of an open job is within it, give or take the
 * sighting step by which its written time may trail its last sighting (a job the rounds do not
 * reach, say one whose sweeps keep failing, breaks it too).
 */

export interface RoundTimes {
  /** epoch ms */
  startedAt: number;
  /** when its last sweep ended (epoch ms); null while a sweep is still out */
  endedAt: number | null;
}

export interface BoundInput {
  intervalMs: number;
  buckets: number;
  /**
   * The provider's latest rounds (at most `buckets` of them, one cycle of buckets), in ms; a
   * round still running counts as long as it has run so far.
   */
  roundDurationsMs: readonly number[];
  /** seconds since the provider last saw the oldest of its listed sources of open jobs; null when it lists none */
  maxAgeSeconds: number | null;
  /**
   * How far a listing's written `last_seen_at` may trail its latest sighting (sightings.ts
   * `SIGHTING_STEP_MS`): an age within the promise and this is a listing re-verified within the promise.
   */
  sightingStepMs?: number;
}

export interface VerificationBound {
  /** `buckets` x the interval: the promised bound (seconds) */
  promisedSeconds: number;
  /** `buckets` x the longer of the interval and the longest recent round (seconds) */
  currentSeconds: number;
  /**
   * The promise holds: every recent round fitted in an interval, and the oldest listing is within
   * the promised bound. False before any round: nothing has been re-verified yet.
   */
  holds: boolean;
}

export function verificationBound(input: BoundInput): VerificationBound {
  const promisedSeconds = (input.buckets * input.intervalMs) / 1000;
  if (input.roundDurationsMs.length === 0) return { promisedSeconds, currentSeconds: promisedSeconds, holds: false };
  const longestMs = Math.max(...input.roundDurationsMs);
  const roundsFit = longestMs <= input.intervalMs;
  const agesWithin =
    input.maxAgeSeconds === null || input.maxAgeSeconds <= promisedSeconds + (input.sightingStepMs ?? 0) / 1000;
  return {
    promisedSeconds,
    currentSeconds: (input.buckets * Math.max(input.intervalMs, longestMs)) / 1000,
    holds: roundsFit && agesWithin,
  };
}

/**
 * How long a round took: to its last sweep's end; one still out counts until now, but no longer
 * than `staleMs`, when the planner gives up on its lost sweeps and starts the next round.
 */
export function roundDurationMs(round: RoundTimes, now: number, staleMs: number): number {
  const end = round.endedAt ?? Math.min(now, round.startedAt + staleMs);
  return Math.max(0, end - round.startedAt);
}
