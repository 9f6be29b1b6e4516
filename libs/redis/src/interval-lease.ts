import type { Redis } from 'ioredis';

/**
 * True for exactly one caller per interval across every replica: the lease on `key` lapses a
 * little before the next tick (250 ms), so the holder or another replica can take the next one.
 * For periodic work that one replica should do (provider health checks, refresh passes).
 */
export async function claimIntervalLease(
  redis: Redis,
  key: string,
  holder: string,
  intervalMs: number,
): Promise<boolean> {
  const leaseMs = Math.max(intervalMs - 250, 250);
  return (await redis.set(key, holder, 'PX', leaseMs, 'NX')) === 'OK';
}
