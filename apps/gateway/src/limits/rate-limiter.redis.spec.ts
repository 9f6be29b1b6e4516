// Against the real Redis of REDIS_URL (default redis://127.0.0.1:6379): buckets of their own,
// under random ids, removed afterwards.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { loadConfig } from '@jobs/config';
import type { Logger } from '@jobs/observability';
import { GatewayEnvSchema } from '../config/gateway.config.js';
import { RateLimiter } from './rate-limiter.js';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
// The request path gives Redis 250 ms before it lets a request through undecided; a loaded test
// machine can stall this process longer than that, and these specs are about the decisions.
const config = loadConfig(GatewayEnvSchema, { RATE_LIMIT_REDIS_TIMEOUT_MS: '10000' });
const quiet = { warn: () => undefined } as unknown as Logger;

describe('RateLimiter against Redis', () => {
  let redis: Redis;
  let limiter: RateLimiter;
  const buckets: string[] = [];
  const bucket = () => {
    const name = `test:${randomUUID()}`;
    buckets.push(name);
    return name;
  };

  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    await new Promise((resolve) => redis.once('ready', resolve));
    limiter = new RateLimiter(redis, config, quiet);
  });
  afterAll(async () => {
    if (buckets.length > 0) await redis.del(...buckets.map((name) => `gateway:ratelimit:${name}`));
    redis.disconnect();
  });

  it('lets exactly the limit through when requests race, and refuses the rest with nothing left', async () => {
    const name = bucket();
    const decisions = await Promise.all(Array.from({ length: 8 }, () => limiter.hit(name, 5, 60)));
    expect(decisions.map((d) => d!.allowed)).toEqual([true, true, true, true, true, false, false, false]);
    expect(decisions.map((d) => d!.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0, 0]);
    expect(decisions.every((d) => d!.resetSeconds === 60)).toBe(true);
    // refused requests took nothing: the counter stands at the limit
    expect(await redis.get(`gateway:ratelimit:${name}`)).toBe('5');
  });

  it('takes a batch whole or not at all, so a refused batch leaves its room to smaller requests', async () => {
    const name = bucket();
    expect(await limiter.hit(name, 5, 60, 3)).toMatchObject({ allowed: true, remaining: 2 });
    expect(await limiter.hit(name, 5, 60, 3)).toMatchObject({ allowed: false, remaining: 2 });
    expect(await limiter.hit(name, 5, 60, 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.hit(name, 5, 60)).toMatchObject({ allowed: false, remaining: 0 });
    expect(await redis.get(`gateway:ratelimit:${name}`)).toBe('5');
  });

  it('opens the window with the first request it takes, not with a refusal', async () => {
    const name = bucket();
    expect(await limiter.hit(name, 2, 30, 3)).toMatchObject({ allowed: false, remaining: 2, resetSeconds: 30 });
    expect(await redis.exists(`gateway:ratelimit:${name}`)).toBe(0);
    const before = Date.now();
    await limiter.hit(name, 2, 30);
    const ttl = await redis.pttl(`gateway:ratelimit:${name}`);
    // the whole window, less only what has passed since the request was sent
    expect(ttl).toBeGreaterThanOrEqual(30_000 - (Date.now() - before) - 1);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it('lets the request through without a decision when Redis is away', async () => {
    const away = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    expect(await new RateLimiter(away, config, quiet).hit(bucket(), 5, 60)).toBeNull();
  });
});
