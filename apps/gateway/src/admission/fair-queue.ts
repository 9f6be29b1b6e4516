import type { InFlightLimit, Slot } from './in-flight-limit.js';

export interface FairQueueTuning {
  /** Requests waiting at once on this replica, at most: beyond it a request is refused at once. */
  maxQueued: number;
  /** The longest a request waits for a slot, whatever its own deadline allows. */
  maxWaitMs: number;
}

/** Why a request that could not start at once was not admitted. */
export type RefusalReason = 'queue_full' | 'wait_too_long' | 'timed_out' | 'abandoned';

/** Why a request was not admitted, and when to come back. */
export interface QueueRefusal {
  reason: RefusalReason;
  retryAfterSeconds: number;
}

/** How a request was admitted: at once, or after waiting `waitedMs`. */
export interface Admitted extends Slot {
  waitedMs: number;
}

export interface EnterOptions {
  /** The account the request is for: slots are shared among the accounts that wait. */
  account: string;
  /** The caller's own deadline for the answer, queueing included: it bounds the wait. */
  deadlineMs: number;
  /** The longest the answer may take before it becomes an error (the in-flight limit's ceiling). */
  ceilingMs: number;
  /** Resolves the wait with a refusal when the caller goes away. */
  signal?: AbortSignal;
}

interface Waiter {
  account: string;
  ceilingMs: number;
  enqueuedAt: number;
  settle(outcome: Admitted | QueueRefusal): void;
}

/** Until this many slots were held, an answer is assumed to take this long (ms). */
const SERVICE_GUESS_MS = 1000;
const SERVICE_EWMA_WEIGHT = 0.2;
const MAX_RETRY_AFTER_SECONDS = 30;

/**
 * Fair admission in front of an adaptive in-flight limit. A request starts at once while the
 * limit has room and nobody waits. Otherwise it waits in a bounded queue, one FIFO per account,
 * and each freed slot goes to the waiting account that holds the fewest slots (ties: the one
 * waiting longest). A busy account therefore waits behind its own requests, while an account
 * with one search in flight takes the next free slot: fair queueing by concurrency share, as
 * Stripe's per-user concurrent-request limiter and Netflix's partitioned limiter do, without a
 * fixed partition that would idle when one account is alone.
 *
 * A request waits no longer than `maxWaitMs`, nor than its own deadline leaves after a typical
 * answer (an answer that could only come after the caller gave up is worth nothing to them).
 * It is refused at once when the expected wait (its place in the fair order, at the pace slots
 * free) already exceeds that, or when the queue is full; `Retry-After` is the time the work
 * ahead of it takes to drain, 1 to 30 s.
 */
export class FairQueue {
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly heldBy = new Map<string, number>();
  private queued = 0;
  /** A moving average of how long an admitted request holds its slot (ms). */
  private serviceMs = SERVICE_GUESS_MS;

  constructor(
    /** The in-flight limit the queue admits into. */
    readonly limit: InFlightLimit,
    private readonly tuning: FairQueueTuning,
    private readonly now: () => number = Date.now,
    private readonly timers: { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void } = {
      set: (fn, ms) => setTimeout(fn, ms),
      clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
    },
  ) {}

  /** Requests waiting now. */
  get length(): number {
    return this.queued;
  }

  /** A slot now, a promise of one (or of a refusal) after a wait, or a refusal now. */
  enter(options: EnterOptions): Admitted | QueueRefusal | Promise<Admitted | QueueRefusal> {
    if (this.queued === 0) {
      const slot = this.take(options.account, options.ceilingMs, 0);
      if (slot) return slot;
    }
    if (this.queued >= this.tuning.maxQueued) return this.refusal('queue_full', this.queued);
    const maxWaitMs = Math.min(this.tuning.maxWaitMs, options.deadlineMs - this.serviceMs);
    const ahead = this.aheadOf(options.account);
    if (maxWaitMs <= 0 || this.drainMs(ahead + 1) > maxWaitMs) return this.refusal('wait_too_long', ahead + 1);
    return new Promise<Admitted | QueueRefusal>((resolve) => {
      let settled = false;
      const timer = this.timers.set(() => {
        if (this.remove(waiter)) settle(this.refusal('timed_out', this.aheadOf(waiter.account) + 1));
      }, maxWaitMs);
      const onAbort = () => {
        if (this.remove(waiter)) settle(this.refusal('abandoned', 0));
      };
      const settle = (outcome: Admitted | QueueRefusal) => {
        if (settled) return;
        settled = true;
        this.timers.clear(timer);
        options.signal?.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const waiter: Waiter = { account: options.account, ceilingMs: options.ceilingMs, enqueuedAt: this.now(), settle };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const line = this.waiting.get(options.account);
      if (line) line.push(waiter);
      else this.waiting.set(options.account, [waiter]);
      this.queued++;
      this.dispatch();
    });
  }

  /** Hands free slots to waiting accounts, the one holding the fewest first. */
  private dispatch(): void {
    while (this.queued > 0 && this.limit.hasRoom) {
      let next: Waiter | undefined;
      let nextHeld = Infinity;
      for (const [account, line] of this.waiting) {
        const held = this.heldBy.get(account) ?? 0;
        const head = line[0]!;
        if (held < nextHeld || (held === nextHeld && head.enqueuedAt < next!.enqueuedAt)) {
          next = head;
          nextHeld = held;
        }
      }
      if (!next) return;
      this.remove(next);
      const slot = this.take(next.account, next.ceilingMs, this.now() - next.enqueuedAt);
      if (!slot) return;
      next.settle(slot);
    }
  }

  private take(account: string, ceilingMs: number, waitedMs: number): Admitted | undefined {
    const entered = this.limit.tryEnter(ceilingMs);
    if (!entered) return undefined;
    this.heldBy.set(account, (this.heldBy.get(account) ?? 0) + 1);
    const started = this.now();
    let released = false;
    return {
      waitedMs,
      release: () => {
        if (released) return;
        released = true;
        const held = (this.heldBy.get(account) ?? 1) - 1;
        if (held > 0) this.heldBy.set(account, held);
        else this.heldBy.delete(account);
        this.serviceMs += SERVICE_EWMA_WEIGHT * (this.now() - started - this.serviceMs);
        entered.release();
        this.dispatch();
      },
    };
  }

  private remove(waiter: Waiter): boolean {
    const line = this.waiting.get(waiter.account);
    const at = line?.indexOf(waiter) ?? -1;
    if (!line || at < 0) return false;
    line.splice(at, 1);
    if (line.length === 0) this.waiting.delete(waiter.account);
    this.queued--;
    return true;
  }

  /**
   * Requests served before a new one of `account`: slots go round the waiting accounts, so each
   * other account is ahead by at most one more request than this account already has waiting.
   */
  private aheadOf(account: string): number {
    const own = this.waiting.get(account)?.length ?? 0;
    let ahead = 0;
    for (const line of this.waiting.values()) ahead += Math.min(line.length, own + 1);
    return ahead;
  }

  /**
   * How long `count` more requests take to start: the slots free at the limit's pace, `limit`
   * answers per typical answer time. Read off the pipeline's present speed, not off recent
   * completions, which after a light spell say how little was asked, not how much it carries.
   */
  private drainMs(count: number): number {
    return (count * this.serviceMs) / Math.max(1, this.limit.steadyLimit);
  }

  private refusal(reason: RefusalReason, ahead: number): QueueRefusal {
    const seconds = Math.ceil(this.drainMs(this.limit.current + ahead) / 1000);
    return { reason, retryAfterSeconds: Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, seconds)) };
  }
}
