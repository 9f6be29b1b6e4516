import { AsyncLocalStorage } from 'node:async_hooks';
import type { WindowPlace } from './rate-window.js';

/** One request asking for room in a bucket: how many it counts for, and the bucket's limit. */
export interface HitRequest {
  weight: number;
  limit: number;
}

/**
 * Takes room for `requests` at once, in order, in a bucket's window (TAKE_HITS_SCRIPT): the
 * window's remaining time, and per request the count after it when taken, or minus the count it
 * found when refused.
 */
export type TakeHits = (
  bucket: string,
  windowMs: number,
  requests: readonly HitRequest[],
) => Promise<{ ttlMs: number; places: number[] }>;

interface Waiter extends HitRequest {
  resolve: (place: WindowPlace) => void;
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
 * that reach the rate limit in the same turn of the event loop are counted by one call instead
 * of n, and each gets its own place in the window, in the order they asked: exactly what n
 * separate calls would have counted, with no request waiting longer than its own turn. Each
 * call runs in the async context (trace, request id) of its bucket's first request.
 */
export class BatchedHits {
  private readonly queued = new Map<string, QueuedHits>();
  private scheduled = false;

  constructor(private readonly take: TakeHits) {}

  hit(bucket: string, windowMs: number, request: HitRequest): Promise<WindowPlace> {
    return new Promise<WindowPlace>((resolve, reject) => {
      const waiter = { ...request, resolve, reject };
      const queued = this.queued.get(bucket);
      if (queued) queued.waiters.push(waiter);
      else this.queued.set(bucket, { windowMs, scope: AsyncLocalStorage.snapshot(), waiters: [waiter] });
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
      const requests = waiters.map(({ weight, limit }) => ({ weight, limit }));
      scope(() => Promise.resolve().then(() => this.take(bucket, windowMs, requests))).then(
        ({ ttlMs, places }) => {
          waiters.forEach((waiter, i) => {
            const place = places[i] ?? 0;
            waiter.resolve({ allowed: place > 0, count: Math.abs(place), ttlMs });
          });
        },
        (error: unknown) => {
          for (const waiter of waiters) waiter.reject(error);
        },
      );
    }
  }
}
