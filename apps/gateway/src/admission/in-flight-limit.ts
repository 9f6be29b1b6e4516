/** A held place among the work in flight; released once, when the work ends however it ends. */
export interface Slot {
  release(): void;
}

/** Why a request was not admitted, and when to come back. */
export interface Refusal {
  retryAfterSeconds: number;
}

export interface InFlightTuning {
  /** The limit never goes below this nor above `max`. */
  min: number;
  max: number;
  /**
   * Where the limit starts, and where it comes back to after a window that used half of it or
   * less (default: `max`, clamped to min..max). Work the pipeline has not carried lately is not
   * let in at once: a burst after a light spell would be admitted whole before any of it could
   * tell whether the pipeline carries it.
   */
  start?: number;
  /** Completions per decision: the p95 of that many latencies moves the limit. */
  window: number;
  /**
   * A p95 at or under this never shrinks the limit, whatever the quiet p95: refusing work that
   * would still be answered this fast helps no caller (twice a 40 ms quiet p95 would turn 16
   * concurrent cheap searches, answered in 300 ms, into refusals with a Retry-After of seconds).
   * 0: the target is twice the quiet p95 alone.
   */
  floorMs?: number;
}

/** How far back completions count towards the drain rate that sets `Retry-After`. */
const RATE_WINDOW_MS = 10_000;
const MAX_RETRY_AFTER_SECONDS = 30;
/** Work during whose whole life at most this many others were in flight ran unhindered: its latency is a quiet one. */
const QUIET_IN_FLIGHT = 1;
const QUIET_SAMPLES = 50;
/** Below this many quiet latencies the quiet p95 is not known yet. */
const QUIET_SAMPLES_NEEDED = 5;
const DECREASE = 0.7;
const MIN_WINDOW = 2;

/**
 * Admission by the work in flight on this replica. At most `limit` units at once; beyond that
 * `tryEnter` refuses (FairQueue decides who waits for the next free slot). `Retry-After` is the
 * time the work now in flight takes to drain at the rate units have been finishing lately
 * (Little's law), 1 to 30 s.
 *
 * The limit adapts to what the pipeline carries now (the machine, the strategy mix, whatever
 * else runs), as TCP's congestion window does: every `window` completions the p95 of their
 * latencies is held against the target: twice the quiet p95 (latencies of work that never had
 * more than one other unit in flight beside it), never under `floorMs`, never above `ceilingMs`
 * (the longest a caller can be kept waiting before the answer would be a timeout).
 * - Above the target the limit shrinks by 30 % (at once when a single unit outlives the ceiling),
 *   at most once per generation of admitted work, so the units still finishing under the old
 *   limit do not shrink it again (nor count in the next window).
 * - At or under it, a window that filled the limit (a unit admitted at the limit, or one refused)
 *   grows it: doubling up to where a light spell found it (as TCP's slow start after idle),
 *   beyond that by a quarter (at least one).
 * - A window that used half of the limit or less proves nothing about the rest: the limit comes
 *   down to `start` (or twice the window's peak, if more), as TCP validates an idle congestion
 *   window (RFC 2861), remembering where it was for the fast way back. A burst after a light
 *   spell is then admitted in part, and the rest when the first part came back within its target.
 * A window is `window` completions of units admitted under the present limit, fewer (down to 2)
 * while the limit is smaller; units admitted before a change do not count towards it.
 */
export class InFlightLimit {
  private inFlight = 0;
  private currentLimit: number;
  /** Where the limit was before a light spell brought it down: full windows within the target double it back up to there. */
  private resumeLimit: number;
  /** The most units in flight at once in the current window, and whether one was refused in it. */
  private windowPeak = 0;
  private windowRefused = false;
  /** Bumped by every change of the limit: units admitted before it report on the old limit. */
  private generation = 0;
  /** Bumped whenever more than QUIET_IN_FLIGHT + 1 units are in flight: a unit that saw it change was not quiet. */
  private crowding = 0;
  private windowLatencies: number[] = [];
  private readonly quietLatencies: number[] = [];
  /** Completion times (ms) within the last RATE_WINDOW_MS, oldest first. */
  private readonly completions: number[] = [];

  constructor(
    private readonly tuning: InFlightTuning,
    private readonly now: () => number = Date.now,
  ) {
    this.currentLimit = this.startLimit;
    this.resumeLimit = tuning.max;
  }

  private get startLimit(): number {
    return Math.min(this.tuning.max, Math.max(this.tuning.min, this.tuning.start ?? this.tuning.max));
  }

  get current(): number {
    return this.inFlight;
  }

  get limit(): number {
    return this.currentLimit;
  }

  /** The p95 of the quiet latencies, or undefined until enough were seen. */
  get quietP95Ms(): number | undefined {
    if (this.quietLatencies.length < QUIET_SAMPLES_NEEDED) return undefined;
    return percentile95(this.quietLatencies);
  }

  /** Admits a unit that may keep its caller waiting at most `ceilingMs`, or refuses it. */
  tryEnter(ceilingMs: number): Slot | Refusal {
    if (this.inFlight >= this.currentLimit) {
      this.windowRefused = true;
      return { retryAfterSeconds: this.retryAfterSeconds() };
    }
    const crowdingAtEntry = this.crowding;
    this.inFlight++;
    if (this.inFlight > this.windowPeak) this.windowPeak = this.inFlight;
    if (this.inFlight > QUIET_IN_FLIGHT + 1) this.crowding++;
    const generation = this.generation;
    const started = this.now();
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.inFlight--;
        const finished = this.now();
        this.completions.push(finished);
        this.forgetOld();
        const quiet = this.crowding === crowdingAtEntry && this.inFlight <= QUIET_IN_FLIGHT;
        this.learn(finished - started, quiet, generation, ceilingMs);
      },
    };
  }

  private learn(latencyMs: number, quiet: boolean, generation: number, ceilingMs: number): void {
    if (quiet) {
      this.quietLatencies.push(latencyMs);
      if (this.quietLatencies.length > QUIET_SAMPLES) this.quietLatencies.shift();
    }
    // Work admitted under a limit since decreased tells nothing about the present one.
    if (generation !== this.generation) return;
    if (latencyMs > ceilingMs) {
      this.decrease(generation);
      return;
    }
    this.windowLatencies.push(latencyMs);
    // A small limit decides on fewer completions, so it recovers as quickly as a large one.
    if (this.windowLatencies.length < Math.max(MIN_WINDOW, Math.min(this.tuning.window, this.currentLimit))) return;
    const p95 = percentile95(this.windowLatencies);
    const quietP95 = this.quietP95Ms;
    const target = quietP95 === undefined ? ceilingMs : Math.min(ceilingMs, Math.max(this.tuning.floorMs ?? 0, 2 * quietP95));
    if (p95 > target) {
      this.decrease(generation);
      return;
    }
    const limit = this.currentLimit;
    let next = limit;
    if (this.windowRefused || this.windowPeak >= limit) {
      next = Math.min(this.tuning.max, limit < this.resumeLimit ? Math.min(this.resumeLimit, 2 * limit) : limit + Math.max(1, Math.floor(limit / 4)));
    } else if (2 * this.windowPeak <= limit) {
      // (A limit a busy spell shrank below `start` comes back up to it the same way.)
      this.resumeLimit = Math.max(this.resumeLimit, limit);
      next = Math.min(this.tuning.max, Math.max(this.startLimit, 2 * this.windowPeak));
    }
    if (next !== limit) {
      // The units still in flight were admitted under the old limit: they do not speak for the new one.
      this.generation++;
      this.currentLimit = next;
    }
    this.startWindow();
  }

  private startWindow(): void {
    this.windowLatencies = [];
    this.windowPeak = this.inFlight;
    this.windowRefused = false;
  }

  private decrease(generation: number): void {
    if (generation !== this.generation) return;
    this.generation++;
    this.currentLimit = Math.max(this.tuning.min, Math.floor(this.currentLimit * DECREASE));
    // What was too much is not regained in one step.
    this.resumeLimit = this.currentLimit;
    this.startWindow();
  }

  /** Whether a unit would be admitted now. */
  get hasRoom(): boolean {
    return this.inFlight < this.currentLimit;
  }

  private retryAfterSeconds(): number {
    this.forgetOld();
    const first = this.completions[0];
    if (first === undefined) return 1;
    const spanSeconds = Math.max(1, (this.now() - first) / 1000);
    const perSecond = this.completions.length / spanSeconds;
    return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(this.inFlight / perSecond)));
  }

  private forgetOld(): void {
    const horizon = this.now() - RATE_WINDOW_MS;
    let drop = 0;
    while (drop < this.completions.length && this.completions[drop]! < horizon) drop++;
    if (drop > 0) this.completions.splice(0, drop);
  }
}

export const isRefusal = (admission: Slot | Refusal): admission is Refusal => 'retryAfterSeconds' in admission;

function percentile95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))]!;
}
