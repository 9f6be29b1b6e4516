/** A held place among the work in flight; released once, when the work ends however it ends. */
export interface Slot {
  release(): void;
}

/** Why a request was not admitted, and when to come back. */
export interface Refusal {
  retryAfterSeconds: number;
}

export interface InFlightTuning {
  /** The limit never goes below this nor above `max`; it starts at `max`. */
  min: number;
  max: number;
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
 * Admission by the work in flight on this replica. At most `limit` units at once; beyond that a
 * request is refused at once, before it does any work (no queue: a queued sync search would
 * spend its caller's deadline waiting, and the spec's answer to "too many" is to come back after
 * `Retry-After`). `Retry-After` is the time the work now in flight takes to drain at the rate
 * units have been finishing lately (Little's law), 1 to 30 s.
 *
 * The limit adapts to what the pipeline carries now (the machine, the strategy mix, whatever
 * else runs): it starts at `max`; every `window` completions the p95 of their latencies is held
 * against the target: twice the quiet p95 (latencies of work that never had more than one other
 * unit in flight beside it), never under `floorMs`, never above `ceilingMs` (the longest a caller can be kept waiting before the
 * answer would be a timeout). Above the target the limit shrinks by 30 % (at once when a single
 * unit outlives the ceiling), at most once per generation of admitted work, so the units still
 * finishing under the old limit do not shrink it again (nor count in the next window); at or
 * under the target it grows by a quarter (at least one). A window is `window` completions, fewer
 * (down to 2) while the limit is smaller. Additive-increase, multiplicative-decrease, as TCP's
 * congestion window.
 */
export class InFlightLimit {
  private inFlight = 0;
  private currentLimit: number;
  /** Bumped by every decrease: units admitted before it report on the old limit. */
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
    this.currentLimit = tuning.max;
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
      return { retryAfterSeconds: this.retryAfterSeconds() };
    }
    const crowdingAtEntry = this.crowding;
    this.inFlight++;
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
    if (p95 > target) this.decrease(generation);
    else {
      // Within the target the limit grows, full or not: a limit shrunk by a busy spell comes back
      // while the load is light, instead of refusing the next burst at a level no longer needed.
      this.currentLimit = Math.min(this.tuning.max, this.currentLimit + Math.max(1, Math.floor(this.currentLimit / 4)));
      this.windowLatencies = [];
    }
  }

  private decrease(generation: number): void {
    if (generation !== this.generation) return;
    this.generation++;
    this.currentLimit = Math.max(this.tuning.min, Math.floor(this.currentLimit * DECREASE));
    this.windowLatencies = [];
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
