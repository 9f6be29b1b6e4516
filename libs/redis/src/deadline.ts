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
