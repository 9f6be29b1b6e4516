/** Raised when no answer arrived in time. */
export class ReplyTimeout extends Error {
  constructor(readonly id: string) {
    super(`no answer for ${id} in time`);
    this.name = 'ReplyTimeout';
  }
}

interface Waiter<T> {
  resolve: (reply: T) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  accepts?: (reply: T) => boolean;
}

/**
 * Requests answered through Kafka: the caller registers before it publishes, the reply
 * listener settles it by id. Every gateway replica hears every reply; only the waiting one acts.
 */
export class PendingReplies<T> {
  private readonly waiters = new Map<string, Waiter<T>>();

  /** `accepts`: which replies under `id` answer this wait (a reply it refuses leaves it waiting). */
  wait(id: string, timeoutMs: number, accepts?: (reply: T) => boolean): Promise<T> {
    const answer = new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        this.forget(id);
        reject(new ReplyTimeout(id));
      }, timeoutMs);
      this.waiters.set(id, { resolve, reject, timer, accepts });
    });
    // The caller awaits this only after its publish: if the publish outlives the timeout (a
    // broker away, kafkajs retrying), the timeout must not be an unhandled rejection, which
    // ends the process. The caller still sees the ReplyTimeout when it awaits.
    answer.catch(() => undefined);
    return answer;
  }

  cancel(id: string): void {
    const waiter = this.waiters.get(id);
    if (!waiter) return;
    clearTimeout(waiter.timer);
    this.waiters.delete(id);
    this.forget(id);
  }

  settle(id: string, reply: T): boolean {
    const waiter = this.waiters.get(id);
    if (!waiter || waiter.accepts?.(reply) === false) return false;
    clearTimeout(waiter.timer);
    this.waiters.delete(id);
    this.forget(id);
    waiter.resolve(reply);
    return true;
  }

  isWaiting(id: string): boolean {
    return this.waiters.has(id);
  }

  /** Called when `id` is settled, cancelled or timed out: a subclass drops what it held for it. */
  protected forget(_id: string): void {}

  get pending(): number {
    return this.waiters.size;
  }
}
