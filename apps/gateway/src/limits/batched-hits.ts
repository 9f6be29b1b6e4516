import { AsyncLocalStorage } from 'node:async_hooks';

/** Counts `hits` requests at once in a bucket's window: the count after them and the window's remaining time. */
export type CountHits = (bucket: string, hits: number, windowMs: number) => Promise<[count: number, ttlMs: number]>;

/** One request's place in its bucket's window. */
export interface Hit {
  /** The request's own count in the window (the n-th request of the window). */
  count: number;
  ttlMs: number;
}

interface Waiter {
  resolve: (hit: Hit) => void;
  reject: (error: unknown) => void;
}

interface QueuedHits {
  windowMs: number;
  /** Runs a function in the async context of the bucket's first request of this turn. */
  scope: <R>(fn: () => R) => R;
  waiters: Waiter[];
}

/**
 * Rate-limit hits counted together per bucket and event-loop turn: the requests of one bucket
 * that reach the rate limit in the same turn of the event loop are counted by one call (INCRBY
 * n) instead of n, and each gets its own place in the window (the first of them count - n + 1,
 * the last count), in the order they asked: exactly what n separate calls would have counted,
 * with no request waiting longer than its own turn. Each call runs in the async context (trace,
 * request id) of its bucket's first request.
 */
export class BatchedHits {
  private readonly queued = new Map<string, QueuedHits>();
  private scheduled = false;

  constructor(private readonly count: CountHits) {}

  hit(bucket: string, windowMs: number): Promise<Hit> {
    return new Promise<Hit>((resolve, reject) => {
      const queued = this.queued.get(bucket);
      if (queued) queued.waiters.push({ resolve, reject });
      else this.queued.set(bucket, { windowMs, scope: AsyncLocalStorage.snapshot(), waiters: [{ resolve, reject }] });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the turn's I/O callbacks: every request read in this turn has asked by then.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batches = [...this.queued];
    this.queued.clear();
    for (const [bucket, { windowMs, scope, waiters }] of batches) {
      scope(() => Promise.resolve().then(() => this.count(bucket, waiters.length, windowMs))).then(
        ([count, ttlMs]) => {
          const before = count - waiters.length;
          waiters.forEach((waiter, i) => waiter.resolve({ count: before + i + 1, ttlMs }));
        },
        (error: unknown) => {
          for (const waiter of waiters) waiter.reject(error);
        },
      );
    }
  }
}
