/**
 * The freshness bound of one provider's re-verification rounds (pure). A partner's round
 * re-verifies one of `buckets` buckets of stored companies, and the own crawler re-reads its
 * whole catalog on its bucket-0 round, so every open job a provider lists is seen again within
 * `buckets` of its rounds. A round starts once the last one ended and an interval passed since
 * that one started: while rounds fit in an interval, `buckets` rounds take `buckets` intervals
 * (the promise); a round that outlasts the interval delays the next one, and rounds then run
 * back to back, each as long as it takes.
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
}

export interface VerificationBound {
  /** `buckets` x the interval: the promised bound (seconds) */
  promisedSeconds: number;
  /** `buckets` x the longer of the interval and the longest recent round (seconds) */
  currentSeconds: number;
  /**
   * Every recent round fitted in an interval, so the promise holds. False before any round:
   * nothing has been re-verified yet.
   */
  holds: boolean;
}

export function verificationBound(input: BoundInput): VerificationBound {
  const promisedSeconds = (input.buckets * input.intervalMs) / 1000;
  if (input.roundDurationsMs.length === 0) return { promisedSeconds, currentSeconds: promisedSeconds, holds: false };
  const longestMs = Math.max(...input.roundDurationsMs);
  return { promisedSeconds, currentSeconds: (input.buckets * Math.max(input.intervalMs, longestMs)) / 1000, holds: longestMs <= input.intervalMs };
}

/**
 * How long a round took: to its last sweep's end; one still out counts until now, but no longer
 * than `staleMs`, when the planner gives up on its lost sweeps and starts the next round.
 */
export function roundDurationMs(round: RoundTimes, now: number, staleMs: number): number {
  const end = round.endedAt ?? Math.min(now, round.startedAt + staleMs);
  return Math.max(0, end - round.startedAt);
}
