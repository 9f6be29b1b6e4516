/** A held place among the work in flight; released once, when the work ends however it ends. */
export interface Slot {
  release(): void;
}

/** Why a request was not admitted, and when to come back. */
export interface Refusal {
  retryAfterSeconds: number;
}

/** How far back completions count towards the drain rate that sets `Retry-After`. */
const RATE_WINDOW_MS = 10_000;
const MAX_RETRY_AFTER_SECONDS = 30;

/**
 * Admission by the work in flight on this replica: at most `capacity` units at once; beyond
 * that a request is refused at once, before it does any work (no queue: a queued sync search
 * would spend its caller's deadline waiting, and the spec's answer to "too many" is to come back
 * after `Retry-After`). `Retry-After` is the time the work now in flight takes to drain at the
 * rate units have been finishing lately (Little's law), at least 1 s and at most 30 s.
 */
export class InFlightLimit {
  private inFlight = 0;
  /** Completion times (ms) within the last RATE_WINDOW_MS, oldest first. */
  private readonly completions: number[] = [];

  constructor(
    readonly capacity: number,
    private readonly now: () => number = Date.now,
  ) {}

  get current(): number {
    return this.inFlight;
  }

  tryEnter(): Slot | Refusal {
    if (this.inFlight >= this.capacity) return { retryAfterSeconds: this.retryAfterSeconds() };
    this.inFlight++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.inFlight--;
        this.completions.push(this.now());
        this.forgetOld();
      },
    };
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
