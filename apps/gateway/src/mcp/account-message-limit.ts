export interface AccountMessageLimitTuning {
  /** JSON-RPC messages one account may have in work at once. */
  perAccount: number;
  /**
   * Messages one account may start per second on average (0: no pace); it may start up to
   * `perAccount` at once after a pause.
   */
  perSecond: number;
  /** POSTs one account may have waiting at once: past it a POST is refused at once. */
  maxWaiting: number;
  /** The longest a POST waits for room. */
  maxWaitMs: number;
}

/** Why a POST was not let in, and when to come back. */
export interface MessageRefusal {
  reason: 'line_full' | 'wait_too_long' | 'abandoned';
  retryAfterSeconds: number;
}

/** Gives the room back; a second call does nothing. */
export type Release = () => void;

interface Waiter {
  weight: number;
  settle(outcome: Release | MessageRefusal): void;
}

interface AccountLine {
  inWork: number;
  waiting: Waiter[];
  /** Messages the account may start now (the pace's allowance), as of `refilledAt`. */
  allowance: number;
  refilledAt: number;
  /** When the line looks again: its first POST's allowance comes, or the idle line is forgotten. */
  wake?: ReturnType<typeof setTimeout>;
}

const MAX_RETRY_AFTER_SECONDS = 30;

/**
 * How many JSON-RPC messages each account has in work, and starts per second, on this replica.
 * Every request of every account shares one event loop: an account sending MCP POSTs as fast as
 * they are answered would otherwise take as much of it as its connections can, and everyone
 * else's answers would wait behind its work. A POST weighs the messages it carries (a batch at
 * most the whole room) and starts at once while its account has room and allowance and nobody of
 * its account waits; otherwise it waits in its account's own line, first come first served, so
 * an account's burst waits behind itself and never delays another account's start. Nothing is
 * shared between accounts, so an account alone is not slowed by others either. A POST is refused
 * (the caller retries after `retryAfterSeconds`) when its account's line is full, when it waited
 * `maxWaitMs`, or when its caller went away.
 */
export class AccountMessageLimit {
  private readonly lines = new Map<string, AccountLine>();

  constructor(
    private readonly tuning: AccountMessageLimitTuning,
    private readonly now: () => number = Date.now,
  ) {}

  /** Messages in work, all accounts together (a gauge). */
  get inWork(): number {
    let total = 0;
    for (const line of this.lines.values()) total += line.inWork;
    return total;
  }

  /** POSTs waiting, all accounts together (a gauge). */
  get waiting(): number {
    let total = 0;
    for (const line of this.lines.values()) total += line.waiting.length;
    return total;
  }

  enter(account: string, messages: number, signal?: AbortSignal): Promise<Release | MessageRefusal> {
    const weight = Math.max(1, Math.min(messages, this.tuning.perAccount));
    const line = this.lineOf(account);
    this.refill(line);
    if (line.waiting.length === 0 && this.fits(line, weight)) return Promise.resolve(this.take(account, line, weight));
    if (line.waiting.length >= this.tuning.maxWaiting || this.tuning.maxWaitMs === 0 || signal?.aborted) {
      this.look(account, line);
      return Promise.resolve({ reason: signal?.aborted ? 'abandoned' : 'line_full', retryAfterSeconds: 1 });
    }
    return new Promise((resolve) => {
      const stop = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        weight,
        settle: (outcome) => {
          stop();
          resolve(outcome);
        },
      };
      const giveUp = (refusal: MessageRefusal) => {
        const at = line.waiting.indexOf(waiter);
        if (at < 0) return;
        line.waiting.splice(at, 1);
        waiter.settle(refusal);
        // the next in line may fit now that a larger POST ahead of it left
        this.look(account, line);
      };
      const retryAfterSeconds = Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, Math.ceil(this.tuning.maxWaitMs / 1000)));
      const timer = setTimeout(() => giveUp({ reason: 'wait_too_long', retryAfterSeconds }), this.tuning.maxWaitMs);
      const onAbort = () => giveUp({ reason: 'abandoned', retryAfterSeconds: 1 });
      signal?.addEventListener('abort', onAbort, { once: true });
      line.waiting.push(waiter);
      this.look(account, line);
    });
  }

  private lineOf(account: string): AccountLine {
    let line = this.lines.get(account);
    if (!line) {
      line = { inWork: 0, waiting: [], allowance: this.tuning.perAccount, refilledAt: this.now() };
      this.lines.set(account, line);
    }
    return line;
  }

  private refill(line: AccountLine): void {
    const now = this.now();
    if (this.tuning.perSecond > 0) {
      const earned = ((now - line.refilledAt) * this.tuning.perSecond) / 1000;
      line.allowance = Math.min(this.tuning.perAccount, line.allowance + earned);
    } else {
      line.allowance = this.tuning.perAccount;
    }
    line.refilledAt = now;
  }

  private fits(line: AccountLine, weight: number): boolean {
    return line.inWork + weight <= this.tuning.perAccount && line.allowance >= weight;
  }

  private take(account: string, line: AccountLine, weight: number): Release {
    line.inWork += weight;
    line.allowance -= weight;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      line.inWork -= weight;
      this.look(account, line);
    };
  }

  /**
   * Lets in the line's first POSTs while they fit, in order (a later, smaller one never
   * overtakes), then sets the line's next look: when its first POST's allowance will have come,
   * or, once idle, when its allowance is whole again and the line can be forgotten.
   */
  private look(account: string, line: AccountLine): void {
    clearTimeout(line.wake);
    line.wake = undefined;
    this.refill(line);
    for (let head = line.waiting[0]; head && this.fits(line, head.weight); head = line.waiting[0]) {
      line.waiting.shift();
      head.settle(this.take(account, line, head.weight));
    }
    const head = line.waiting[0];
    const missing = (head ? head.weight : this.tuning.perAccount) - line.allowance;
    if (!head && line.inWork === 0 && missing <= 0) {
      if (this.lines.get(account) === line) this.lines.delete(account);
      return;
    }
    // Waiting for room in work is woken by a release; only a missing allowance needs the clock.
    if (missing > 0 && (head ? line.inWork + head.weight <= this.tuning.perAccount : line.inWork === 0)) {
      line.wake = setTimeout(() => this.look(account, line), Math.ceil((missing * 1000) / this.tuning.perSecond));
      if (!head) line.wake.unref();
    }
  }
}
