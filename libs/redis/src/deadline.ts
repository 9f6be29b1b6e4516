import type { Redis } from 'ioredis';

/**
 * A Redis call bounded in time. While Redis is away ioredis queues commands and retries them
 * with a growing back-off (seconds per request), so a request path that can do without Redis
 * (a cache, a counter) or must refuse quickly gives up after `ms` instead.
 */
export async function withinDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer from Redis within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A call on a request path: refused at once while the client is not connected (ioredis would
 * queue it until a reconnect), and given up after `ms` when connected but slow.
 */
export async function callRedis<T>(
  redis: Redis,
  call: (redis: Redis) => Promise<T>,
  ms: number,
  what: string,
): Promise<T> {
  if (redis.status !== 'ready') throw new Error(`${what}: Redis is not connected (${redis.status})`);
  return withinDeadline(call(redis), ms, what);
}
