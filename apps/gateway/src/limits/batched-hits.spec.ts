import { AsyncLocalStorage } from 'node:async_hooks';
import { BatchedHits } from './batched-hits.js';

/** A Redis stand-in: one counter per bucket, every call recorded. */
function counter() {
  const counts = new Map<string, number>();
  const calls: Array<{ bucket: string; hits: number }> = [];
  const count = async (bucket: string, hits: number, windowMs: number): Promise<[number, number]> => {
    calls.push({ bucket, hits });
    const next = (counts.get(bucket) ?? 0) + hits;
    counts.set(bucket, next);
    return [next, windowMs];
  };
  return { calls, count };
}

describe('BatchedHits', () => {
  it('counts one turn’s requests of a bucket with one call, each in its own place, in the order asked', async () => {
    const { calls, count } = counter();
    const hits = new BatchedHits(count);
    const places = await Promise.all([
      hits.hit('account:a', 60_000),
      hits.hit('account:a', 60_000),
      hits.hit('account:b', 60_000),
      hits.hit('account:a', 60_000),
    ]);
    expect(places.map((p) => p.count)).toEqual([1, 2, 1, 3]);
    expect(places[0]!.ttlMs).toBe(60_000);
    expect(calls).toEqual([
      { bucket: 'account:a', hits: 3 },
      { bucket: 'account:b', hits: 1 },
    ]);
  });

  it('goes on counting from where the window stands in later turns', async () => {
    const { calls, count } = counter();
    const hits = new BatchedHits(count);
    await Promise.all([hits.hit('account:a', 1000), hits.hit('account:a', 1000)]);
    const later = await Promise.all([hits.hit('account:a', 1000), hits.hit('account:a', 1000)]);
    expect(later.map((p) => p.count)).toEqual([3, 4]);
    expect(calls).toHaveLength(2);
  });

  it('fails every request of a failed call, and only those', async () => {
    let fail = true;
    const hits = new BatchedHits(async (_bucket, n) => {
      if (fail) throw new Error('Redis is not connected');
      return [n, 1000];
    });
    const failed = Promise.allSettled([hits.hit('account:a', 1000), hits.hit('account:a', 1000)]);
    expect((await failed).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(hits.hit('account:a', 1000)).resolves.toEqual({ count: 1, ttlMs: 1000 });
  });

  it('calls in the async context of the bucket’s first request', async () => {
    const storage = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    const hits = new BatchedHits(async (_bucket, n) => {
      seen.push(storage.getStore());
      return [n, 1000];
    });
    await Promise.all([
      storage.run('request-1', () => hits.hit('account:a', 1000)),
      storage.run('request-2', () => hits.hit('account:a', 1000)),
    ]);
    expect(seen).toEqual(['request-1']);
  });
});
