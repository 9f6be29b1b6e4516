import type { InFlightLimit, Slot } from './in-flight-limit.js';

export interface FairQueueTuning {
  /** Requests waiting at once on this replica, at most: beyond it a request is refused at once. */
  maxQueued: number;
  /** The longest a request waits for a slot, whatever its own deadline allows. */
  maxWaitMs: number;
  /**
   * Slots an account may hold before it waits for a full limit's turn: below this it starts at
   * once within the room past the limit (`floorRoom`). Default 1.
   */
  accountFloor?: number;
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
/** How far past its allowed wait an expected wait may be and the search still wait (not refused at once). */
const ESTIMATE_MARGIN = 2;
/** The share of the limit accounts under their floor may start beyond it (`floorRoom`), at least the floor. */
const FLOOR_ROOM_SHARE = 0.25;
/** An account that sent a request within this long still shares the pipeline (`InFlightLimit.sharing`). */
export const SHARING_MEMORY_MS = 10_000;

/**
 * Fair admission in front of an adaptive in-flight limit. A request starts at once while the
 * limit has room and nobody waits. Otherwise it waits in a bounded queue, one FIFO per account,
 * and each freed slot goes to the waiting account that holds the fewest slots (ties: the one
 * waiting longest). A busy account therefore waits behind its own requests, while an account
 * with one search in flight takes the next free slot: fair queueing by concurrency share, as
 * Stripe's per-user concurrent-request limiter and Netflix's partitioned limiter do, without a
 * fixed partition that would idle when one account is alone. An account holding fewer slots than
 * its floor starts at once even past a full limit, within a room of a quarter of it (`floorRoom`):
 * one account keeping every slot busy never makes another one wait for the few searches its own
 * pace keeps in flight.
 *
 * A request waits no longer than `maxWaitMs`, nor than its own deadline leaves after an unloaded
 * answer: the deadline runs from the request's arrival, so the wait comes off the pipeline's
 * budget, and a search is let wait only while what is left would still carry it.
 * It is refused at once when the expected wait (its place in the fair order, at the pace slots
 * free) exceeds twice that, or when the queue is full; `Retry-After` is the time the work
 * ahead of it takes to drain, 1 to 30 s.
 */
export class FairQueue {
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly heldBy = new Map<string, number>();
  private queued = 0;
  /** When each account that sent a request lately last did (epoch ms); pruned as it is read. */
  private readonly lastSeen = new Map<string, number>();
  /** Accounts that sent requests lately to any replica of the pipeline (`shareAccounts`). */
  private accountsElsewhere: ReadonlySet<string> = new Set();
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
    this.limit.sharing = this.noteAccount(options.account);
    // Nobody waits, or an account under its floor whom no account under its floor waits before.
    if (this.queued === 0 || (this.underFloor(options.account) && !this.underFloorWaits())) {
      const slot = this.take(options.account, options.ceilingMs, 0);
      if (slot) return slot;
    }
    if (this.queued >= this.tuning.maxQueued) return this.refusal('queue_full', this.queued);
    const maxWaitMs = Math.min(this.tuning.maxWaitMs, options.deadlineMs - this.answerFloorMs());
    const ahead = this.aheadOf(options.account);
    // Refused at once only when the estimate is clearly out of reach: it reads the pace off the
    // limit and hold time of the moment, which a change of strategy mix or a limit still growing
    // back makes pessimistic; within twice the wait, the search gets its chance until its wait ends.
    if (maxWaitMs <= 0 || this.drainMs(ahead + 1) > ESTIMATE_MARGIN * maxWaitMs)
      return this.refusal('wait_too_long', ahead + 1);
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

  /** The accounts that sent a request to this replica within SHARING_MEMORY_MS, with when each last did. */
  recentAccounts(): Array<[account: string, at: number]> {
    this.forgetQuiet(this.now());
    return [...this.lastSeen];
  }

  /**
   * The accounts the replicas of this pipeline saw lately (AdmissionBaselineExchange): the
   * pipeline is shared while any account but the one asking sent searches to any of them. A
   * replica that sees one busy account alone would otherwise hold it to the lone tolerance and
   * fill the pipeline that another replica's quiet account shares.
   */
  shareAccounts(accounts: Iterable<string>): void {
    this.accountsElsewhere = new Set(accounts);
    this.forgetQuiet(this.now());
    this.limit.sharing = this.sharedByOthers();
  }

  /**
   * Remembers that `account` sent a request now, and says whether another account did within
   * SHARING_MEMORY_MS, here or at another replica. Memory stays one entry per recently active account.
   */
  private noteAccount(account: string): boolean {
    const now = this.now();
    this.lastSeen.delete(account);
    this.forgetQuiet(now);
    this.lastSeen.set(account, now);
    return this.sharedByOthers();
  }

  /** More than one account sent searches lately, to this replica or another. */
  private sharedByOthers(): boolean {
    if (this.lastSeen.size > 1 || this.accountsElsewhere.size > 1) return true;
    const [here] = this.lastSeen.keys();
    const [elsewhere] = this.accountsElsewhere;
    return here !== undefined && elsewhere !== undefined && here !== elsewhere;
  }

  private forgetQuiet(now: number): void {
    for (const [other, at] of this.lastSeen) {
      // Insertion order is the order of last requests: the oldest come first.
      if (now - at <= SHARING_MEMORY_MS) break;
      this.lastSeen.delete(other);
    }
  }

  /**
   * The least time a search needs once started: an unloaded answer (the pipeline's own pace, not
   * a partner's hang or today's queueing), else the typical hold time until one was seen. A
   * search's budget runs from its arrival, so this much must be left of it after the wait.
   */
  private answerFloorMs(): number {
    return this.limit.unloadedP50Ms ?? this.serviceMs;
  }

  /** Hands free slots to waiting accounts, the one holding the fewest first. */
  private dispatch(): void {
    while (this.queued > 0) {
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
      const slot = this.take(next.account, next.ceilingMs, this.now() - next.enqueuedAt);
      if (!slot) return;
      this.remove(next);
      next.settle(slot);
    }
  }

  private get accountFloor(): number {
    return Math.max(1, this.tuning.accountFloor ?? 1);
  }

  /** Whether `account` holds fewer slots than its floor. */
  private underFloor(account: string): boolean {
    return (this.heldBy.get(account) ?? 0) < this.accountFloor;
  }

  /** Whether an account under its floor waits (it goes first, and may use the room past the limit). */
  private underFloorWaits(): boolean {
    for (const account of this.waiting.keys()) if (this.underFloor(account)) return true;
    return false;
  }

  /**
   * Room past the limit for an account under its floor: a quarter of the limit, at least the
   * floor. A busy account can fill the limit for as long as each of its searches takes (a partner
   * that hangs makes that the whole deadline), and an account sending searches at a modest pace,
   * which keeps one or two in flight, would wait for those to end and be refused however fair the
   * order; with this room it starts at once. Bounded, so a crowd of small accounts still waits
   * its turn.
   */
  private floorRoom(account: string): number {
    if (!this.underFloor(account)) return 0;
    return Math.max(this.accountFloor, Math.floor(this.limit.limit * FLOOR_ROOM_SHARE));
  }

  private take(account: string, ceilingMs: number, waitedMs: number): Admitted | undefined {
    const entered = this.limit.tryEnter(ceilingMs, this.floorRoom(account));
    if (!entered) return undefined;
    this.heldBy.set(account, (this.heldBy.get(account) ?? 0) + 1);
    const started = this.now();
    let released = false;
    return {
      waitedMs,
      release: (outcome) => {
        if (released) return;
        released = true;
        const held = (this.heldBy.get(account) ?? 1) - 1;
        if (held > 0) this.heldBy.set(account, held);
        else this.heldBy.delete(account);
        this.serviceMs += SERVICE_EWMA_WEIGHT * (this.now() - started - this.serviceMs);
        entered.release(outcome);
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
   * Requests served before a new one of `account`. Freed slots go to the waiting account holding
   * the fewest, so a request is served at about the level (slots its account holds then) of its
   * account's holdings plus the requests ahead of it in its own line; another account's waiting
   * requests come first while their own level is no higher. An account holding many slots is
   * therefore behind one holding none, however long its line.
   */
  private aheadOf(account: string): number {
    const own = this.waiting.get(account)?.length ?? 0;
    const level = (this.heldBy.get(account) ?? 0) + own;
    let ahead = own;
    for (const [other, line] of this.waiting) {
      if (other === account) continue;
      ahead += Math.min(line.length, Math.max(0, level - (this.heldBy.get(other) ?? 0) + 1));
    }
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
