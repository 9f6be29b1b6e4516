import { AsyncLocalStorage } from 'node:async_hooks';

/** Reads the rows of many keys in one statement; a key without a row is absent from the map. */
export type ReadMany<K, V> = (keys: K[]) => Promise<Map<K, V>>;

interface Waiter<V> {
  resolve: (value: V | undefined) => void;
  reject: (error: unknown) => void;
}

interface Queued<V> {
  /** Runs a function in the async context of the key's first read. */
  scope: <R>(fn: () => R) => R;
  waiters: Array<Waiter<V>>;
}

/**
 * Reads by key, many per round trip, without ever answering from the past: one statement is in
 * flight at a time, and every read asked for while it is out waits for the next one, which
 * then carries all of them (however many requests, one statement per round trip). A read never
 * joins a statement that was already sent: its statement starts after the read was asked for,
 * so it sees every write committed before that, as its own query would (no cache, nothing to
 * invalidate). Under load the database sees one statement per round trip instead of one per
 * request; alone, a read is sent at once.
 *
 * Each statement runs in the async context (trace, request id) of the first read it carries.
 */
export class BatchedReads<K, V> {
  private readonly queued = new Map<K, Queued<V>>();
  private inFlight = false;

  constructor(
    private readonly readMany: ReadMany<K, V>,
    /** Keys per statement at most; the rest wait for the next one. */
    private readonly maxKeys = 500,
  ) {}

  read(key: K): Promise<V | undefined> {
    return new Promise<V | undefined>((resolve, reject) => {
      const queued = this.queued.get(key);
      if (queued) queued.waiters.push({ resolve, reject });
      else this.queued.set(key, { scope: AsyncLocalStorage.snapshot(), waiters: [{ resolve, reject }] });
      if (!this.inFlight) this.send();
    });
  }

  private send(): void {
    if (this.queued.size === 0) {
      this.inFlight = false;
      return;
    }
    this.inFlight = true;
    const batch = new Map<K, Queued<V>>();
    for (const [key, queued] of this.queued) {
      if (batch.size === this.maxKeys) break;
      batch.set(key, queued);
    }
    for (const key of batch.keys()) this.queued.delete(key);
    const first = batch.values().next().value!;
    // A synchronous throw becomes a rejection of this statement's reads, like a failed query.
    const settled = first
      .scope(() => Promise.resolve().then(() => this.readMany([...batch.keys()])))
      .then(
        (rows) => {
          for (const [key, { waiters }] of batch) for (const waiter of waiters) waiter.resolve(rows.get(key));
        },
        (error: unknown) => {
          for (const { waiters } of batch.values()) for (const waiter of waiters) waiter.reject(error);
        },
      );
    void settled.then(() => this.send());
  }
}
