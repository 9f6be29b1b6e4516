/** How a unit of work ended, as far as the limit cares. */
export interface SlotOutcome {
  /**
   * Its latency was a dependency's, not the pipeline's: a search that waited out its deadline on
   * a partner that never answered. Such a latency says nothing about how much the pipeline
   * carries, so it neither moves the limit nor counts as unloaded.
   */
  dependencyBound?: boolean;
  /**
   * It was turned away before its work ran (a body that does not validate, an Idempotency-Key
   * conflict or replay, a refusal): answered in a few milliseconds, or after waiting on another
   * request, it says nothing of the pipeline either. Learnt from, a burst of bad requests in a
   * quiet spell would set the unloaded latency, and with it every account's target, to a few
   * milliseconds.
   */
  turnedAway?: boolean;
}

/** A held place among the work in flight; released once, when the work ends however it ends. */
export interface Slot {
  release(outcome?: SlotOutcome): void;
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
   * The window p95 the limit holds work to, as a multiple of the pipeline's unloaded p50 (the
   * latency of work that ran nearly alone) while one account alone uses the pipeline.
   */
  tolerance: number;
  /**
   * The same multiple while several accounts share the pipeline (`sharing`); default `tolerance`.
   * Alone, an account's queueing delays only its own work, and it chose its concurrency; shared,
   * every unit of one account's concurrency is latency for the others, so the limit holds the
   * pipeline closer to its unloaded pace.
   */
  sharedTolerance?: number;
  /**
   * A p95 at or under this never shrinks the limit, whatever the unloaded latency: refusing work
   * that would still be answered this fast helps no caller. 0: no floor.
   */
  floorMs?: number;
  /**
   * How long unloaded latencies stay good. When the newest (this replica's or another's) is older
   * and the limit is busy, the limit probes: it lets the work in flight drain to `min` until a few
   * units ran unloaded, then returns to where it was. Probes start only in the first tenth of a
   * wall-clock period of this length, so replicas sharing a pipeline drain together. Default 60 s.
   */
  probeAfterMs?: number;
}

/**
 * Work during whose whole life at most this many units (or `min`, if more) were in flight, itself included, ran
 * unloaded.
 */
const UNLOADED_IN_FLIGHT = 2;
const UNLOADED_SAMPLES = 50;
/** Below this many unloaded latencies the unloaded p50 is not known yet; a probe gathers this many. */
const UNLOADED_SAMPLES_NEEDED = 3;
const DECREASE = 0.7;
const MIN_WINDOW = 2;
const DEFAULT_PROBE_AFTER_MS = 60_000;

/**
 * Admission by the work in flight on this replica: at most `limit` units at once; beyond that
 * `tryEnter` admits nothing (FairQueue decides who waits for the next free slot, and when to come
 * back).
 *
 * The limit adapts to what the pipeline carries now (the machine, the strategy mix, whatever
 * else runs), as TCP Vegas and Netflix's concurrency-limits do: every `window` completions the p95
 * of their latencies is held against the target, `tolerance` times the unloaded p50 (latencies of
 * work that never had more than one other unit in flight beside it), never under `floorMs`, never
 * above `ceilingMs` (the longest a caller can be kept waiting before the answer would be an error).
 * - Above the target the limit shrinks by 30 % (at once when a single unit outlives the ceiling),
 *   at most once per generation of admitted work, so the units still finishing under the old
 *   limit do not shrink it again (nor count in the next window).
 * - At or under it, a window that filled the limit (a unit admitted at the limit, or one turned
 *   away) grows it: doubling up to where a light spell found it (as TCP's slow start after idle),
 *   beyond that by a quarter (at least one).
 * - A window that used half of the limit or less proves nothing about the rest: the limit comes
 *   down to `start` (or twice the window's peak, if more), as TCP validates an idle congestion
 *   window (RFC 2861), remembering where it was for the fast way back.
 * - A pipeline kept busy never shows its unloaded latency, and without it the target would be the
 *   ceiling: when the newest unloaded latency is older than `probeAfterMs` (or there was none),
 *   the limit drops to `min` until a few units ran unloaded, then returns (Vegas's periodic probe
 *   of the base RTT). A probe costs a fraction of a second of throughput once a minute.
 * A window is `window` completions of units admitted under the present limit, fewer (down to 2)
 * while the limit is smaller; units admitted before a change do not count towards it.
 */
export class InFlightLimit {
  private inFlight = 0;
  private currentLimit: number;
  /** Where the limit was before a light spell or a probe brought it down. */
  private resumeLimit: number;
  /** The most units in flight at once in the current window, and whether one was turned away in it. */
  private windowPeak = 0;
  private windowFull = false;
  /** Bumped by every change of the limit: units admitted before it report on the old limit. */
  private generation = 0;
  /** Bumped whenever more than UNLOADED_IN_FLIGHT units are in flight: a unit that saw it change was loaded. */
  private crowding = 0;
  private windowLatencies: number[] = [];
  private readonly unloadedLatencies: number[] = [];
  private lastUnloadedAt: number | undefined;
  /** Unloaded latencies still wanted by the probe under way (0: no probe). */
  private probeWants = 0;
  /** The lowest fresh unloaded p50 other replicas of the pipeline report, and when it was seen. */
  private others: { p50Ms: number; at: number } | undefined;
  private sharedNow = false;

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

  /** Whether several accounts share the pipeline now (FairQueue says): the target uses `sharedTolerance`. */
  get sharing(): boolean {
    return this.sharedNow;
  }

  /**
   * A limit one account alone grew under the lone tolerance is more than a shared pipeline should
   * carry: when a second account comes, the limit drops to `start` at once instead of shrinking a
   * window at a time while the newcomer's searches wait behind the first one's.
   */
  set sharing(shared: boolean) {
    if (shared && !this.sharedNow && this.probeWants === 0 && this.currentLimit > this.startLimit) {
      this.setLimit(this.startLimit, true);
      this.resumeLimit = this.currentLimit;
    }
    this.sharedNow = shared;
  }

  /** The limit work drains at beyond the next moments: during a probe, the one it returns to. */
  get steadyLimit(): number {
    return this.probeWants > 0 ? this.resumeLimit : this.currentLimit;
  }

  /** Whether the limit is probing the unloaded latency now. */
  get probing(): boolean {
    return this.probeWants > 0;
  }

  /**
   * The unloaded p50 the target follows: the lower of this replica's own and the other replicas'
   * (a replica that only ever saw the pipeline while another kept it busy learnt it too high),
   * or undefined until one is known.
   */
  get unloadedP50Ms(): number | undefined {
    const own = this.ownUnloadedP50Ms;
    const others = this.others?.p50Ms;
    if (own === undefined) return others;
    return others === undefined ? own : Math.min(own, others);
  }

  /** This replica's own unloaded p50, or undefined until enough were seen. */
  get ownUnloadedP50Ms(): number | undefined {
    if (this.unloadedLatencies.length < UNLOADED_SAMPLES_NEEDED) return undefined;
    return percentile(this.unloadedLatencies, 0.5);
  }

  /** When this replica last saw an unloaded latency (epoch ms), if ever. */
  get ownUnloadedAt(): number | undefined {
    return this.lastUnloadedAt;
  }

  /** What the other replicas report: their lowest fresh unloaded p50 and when it was seen, or nothing. */
  shareUnloaded(others: { p50Ms: number; at: number } | undefined): void {
    this.others = others;
  }

  /** The window p95 the limit holds work to now, for work that may take at most `ceilingMs`. */
  targetMs(ceilingMs: number): number {
    const unloaded = this.unloadedP50Ms;
    if (unloaded === undefined) return ceilingMs;
    const alone = this.tuning.tolerance;
    const tolerance = this.sharing ? (this.tuning.sharedTolerance ?? alone) : alone;
    return Math.min(ceilingMs, Math.max(this.tuning.floorMs ?? 0, tolerance * unloaded));
  }

  /**
   * Admits a unit that may keep its caller waiting at most `ceilingMs`, or nothing when the limit
   * (plus `beyond`, room the caller grants past it) is reached.
   */
  tryEnter(ceilingMs: number, beyond = 0): Slot | undefined {
    if (this.inFlight >= this.currentLimit + beyond) {
      this.windowFull = true;
      return undefined;
    }
    const crowdingAtEntry = this.crowding;
    this.inFlight++;
    if (this.inFlight >= this.currentLimit) this.windowFull = true;
    if (this.inFlight > this.windowPeak) this.windowPeak = this.inFlight;
    if (this.inFlight > Math.max(UNLOADED_IN_FLIGHT, this.tuning.min)) this.crowding++;
    const generation = this.generation;
    const started = this.now();
    let released = false;
    return {
      release: (outcome) => {
        if (released) return;
        released = true;
        this.inFlight--;
        if (outcome?.dependencyBound || outcome?.turnedAway) return;
        const unloaded = this.crowding === crowdingAtEntry;
        this.learn(this.now() - started, unloaded, generation, ceilingMs);
      },
    };
  }

  private learn(latencyMs: number, unloaded: boolean, generation: number, ceilingMs: number): void {
    if (unloaded) this.rememberUnloaded(latencyMs);
    if (this.probeWants > 0) return;
    // Work admitted under a limit since changed tells nothing about the present one.
    if (generation !== this.generation) return;
    if (latencyMs > ceilingMs) {
      this.decrease();
      return;
    }
    this.windowLatencies.push(latencyMs);
    // A small limit decides on fewer completions, so it recovers as quickly as a large one.
    if (this.windowLatencies.length < Math.max(MIN_WINDOW, Math.min(this.tuning.window, this.currentLimit))) return;
    if (this.windowFull && this.unloadedIsStale()) {
      this.startProbe();
      return;
    }
    if (percentile(this.windowLatencies, 0.95) > this.targetMs(ceilingMs)) {
      this.decrease();
      return;
    }
    const limit = this.currentLimit;
    let next = limit;
    if (this.windowFull || this.windowPeak >= limit) {
      next = Math.min(
        this.tuning.max,
        limit < this.resumeLimit ? Math.min(this.resumeLimit, 2 * limit) : limit + Math.max(1, Math.floor(limit / 4)),
      );
    } else if (2 * this.windowPeak <= limit) {
      // (A limit a busy spell shrank below `start` comes back up to it the same way.)
      this.resumeLimit = Math.max(this.resumeLimit, limit);
      next = Math.min(this.tuning.max, Math.max(this.startLimit, 2 * this.windowPeak));
    }
    this.setLimit(next);
  }

  private rememberUnloaded(latencyMs: number): void {
    this.unloadedLatencies.push(latencyMs);
    if (this.unloadedLatencies.length > UNLOADED_SAMPLES) this.unloadedLatencies.shift();
    this.lastUnloadedAt = this.now();
    if (this.probeWants > 0 && --this.probeWants === 0) this.setLimit(this.resumeLimit);
  }

  /** Whether to probe now: no fresh unloaded latency anywhere, the limit above its minimum, and a period just begun. */
  private unloadedIsStale(): boolean {
    if (this.currentLimit <= this.tuning.min) return false;
    const period = this.tuning.probeAfterMs ?? DEFAULT_PROBE_AFTER_MS;
    const now = this.now();
    const newest = Math.max(this.lastUnloadedAt ?? -Infinity, this.others?.at ?? -Infinity);
    if (now - newest <= period) return false;
    return now % period < period / 10;
  }

  private startProbe(): void {
    this.probeWants = UNLOADED_SAMPLES_NEEDED;
    this.resumeLimit = this.currentLimit;
    this.setLimit(this.tuning.min, true);
  }

  private decrease(): void {
    this.setLimit(Math.max(this.tuning.min, Math.floor(this.currentLimit * DECREASE)), true);
    // What was too much is not regained in one step.
    this.resumeLimit = this.currentLimit;
  }

  /** Sets the limit and starts a new window; a change opens a new generation. */
  private setLimit(next: number, force = false): void {
    if (next !== this.currentLimit || force) {
      // The units still in flight were admitted under the old limit: they do not speak for the new one.
      this.generation++;
      this.currentLimit = next;
    }
    this.windowLatencies = [];
    this.windowPeak = this.inFlight;
    this.windowFull = this.inFlight >= this.currentLimit;
  }
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}
