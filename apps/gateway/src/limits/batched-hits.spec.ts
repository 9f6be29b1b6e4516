import { AsyncLocalStorage } from 'node:async_hooks';
import { BatchedHits, type HitRequest } from './batched-hits.js';

/** A Redis stand-in taking room as TAKE_HITS_SCRIPT does: one counter per bucket, every call recorded. */
function counter() {
  const counts = new Map<string, number>();
  const calls: Array<{ bucket: string; requests: readonly HitRequest[] }> = [];
  const take = async (bucket: string, windowMs: number, requests: readonly HitRequest[]) => {
    calls.push({ bucket, requests });
    let count = counts.get(bucket) ?? 0;
    const places = requests.map(({ weight, limit }) => {
      if (count + weight > limit) return -count;
      count += weight;
      return count;
    });
    counts.set(bucket, count);
    return { ttlMs: windowMs, places };
  };
  return { calls, take };
}

const one = { weight: 1, limit: 100 };

describe('BatchedHits', () => {
  it('counts one turn’s requests of a bucket with one call, each in its own place, in the order asked', async () => {
    const { calls, take } = counter();
    const hits = new BatchedHits(take);
    const places = await Promise.all([
      hits.hit('account:a', 60_000, one),
      hits.hit('account:a', 60_000, one),
      hits.hit('account:b', 60_000, one),
      hits.hit('account:a', 60_000, one),
    ]);
    expect(places.map((p) => p.count)).toEqual([1, 2, 1, 3]);
    expect(places.every((p) => p.allowed && p.ttlMs === 60_000)).toBe(true);
    expect(calls).toEqual([
      { bucket: 'account:a', requests: [one, one, one] },
      { bucket: 'account:b', requests: [one] },
    ]);
  });

  it('goes on counting from where the window stands in later turns', async () => {
    const { calls, take } = counter();
    const hits = new BatchedHits(take);
    await Promise.all([hits.hit('account:a', 1000, one), hits.hit('account:a', 1000, one)]);
    const later = await Promise.all([hits.hit('account:a', 1000, one), hits.hit('account:a', 1000, one)]);
    expect(later.map((p) => p.count)).toEqual([3, 4]);
    expect(calls).toHaveLength(2);
  });

  it('takes a batch whole or refuses it with the count it found, leaving its room to later requests', async () => {
    const { take } = counter();
    const hits = new BatchedHits(take);
    const limit = 5;
    const places = await Promise.all([
      hits.hit('account:a', 1000, { weight: 3, limit }),
      hits.hit('account:a', 1000, { weight: 3, limit }),
      hits.hit('account:a', 1000, { weight: 1, limit }),
      hits.hit('account:a', 1000, { weight: 1, limit }),
      hits.hit('account:a', 1000, { weight: 1, limit }),
    ]);
    expect(places.map(({ allowed, count }) => ({ allowed, count }))).toEqual([
      { allowed: true, count: 3 },
      { allowed: false, count: 3 },
      { allowed: true, count: 4 },
      { allowed: true, count: 5 },
      { allowed: false, count: 5 },
    ]);
  });

  it('fails every request of a failed call, and only those', async () => {
    let fail = true;
    const hits = new BatchedHits(async (_bucket, windowMs, requests) => {
      if (fail) throw new Error('Redis is not connected');
      return { ttlMs: windowMs, places: requests.map((_, i) => i + 1) };
    });
    const failed = Promise.allSettled([hits.hit('account:a', 1000, one), hits.hit('account:a', 1000, one)]);
    expect((await failed).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(hits.hit('account:a', 1000, one)).resolves.toEqual({ allowed: true, count: 1, ttlMs: 1000 });
  });

  it('calls in the async context of the bucket’s first request', async () => {
    const storage = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    const hits = new BatchedHits(async (_bucket, windowMs, requests) => {
      seen.push(storage.getStore());
      return { ttlMs: windowMs, places: requests.map((_, i) => i + 1) };
    });
    await Promise.all([
      storage.run('request-1', () => hits.hit('account:a', 1000, one)),
      storage.run('request-2', () => hits.hit('account:a', 1000, one)),
    ]);
    expect(seen).toEqual(['request-1']);
  });
});
