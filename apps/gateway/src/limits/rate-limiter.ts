import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { callRedis } from '@jobs/redis';
import { LOGGER } from '@jobs/service-kit';
import type { Logger } from '@jobs/observability';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { decideRate, FIXED_WINDOW_SCRIPT, type RateDecision } from './rate-window.js';

const COUNT_COMMAND = 'gatewayRateWindowCount';
type CountingRedis = Record<typeof COUNT_COMMAND, (key: string, windowMs: string) => Promise<[number, number]>>;

/**
 * Counts requests per bucket in Redis. When Redis is disconnected or does not answer in time the request is let
 * through without rate-limit headers (fail open): an outage of the counter should not take
 * the API down with it, and the caller is still authenticated and billed correctly.
 */
@Injectable()
export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    // A defined command is sent as EVALSHA (the script is loaded once, EVAL only as fallback): the
    // script's text no longer travels, nor is hashed by Redis, with every request.
    if (!(COUNT_COMMAND in redis)) redis.defineCommand(COUNT_COMMAND, { numberOfKeys: 1, lua: FIXED_WINDOW_SCRIPT });
  }

  async hit(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision | null> {
    try {
      const counting = (redis: Redis) => (redis as unknown as CountingRedis)[COUNT_COMMAND](`gateway:ratelimit:${bucket}`, String(windowSeconds * 1000));
      const [count, ttlMs] = await callRedis(this.redis, counting, this.config.RATE_LIMIT_REDIS_TIMEOUT_MS, 'rate limiter');
      return decideRate(count, limit, ttlMs);
    } catch (error) {
      this.logger.warn({ err: error, bucket }, 'rate limiter unavailable; request let through');
      return null;
    }
  }
}
