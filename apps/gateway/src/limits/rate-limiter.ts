import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { callRedis } from '@jobs/redis';
import { LOGGER } from '@jobs/service-kit';
import type { Logger } from '@jobs/observability';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { decideRate, FIXED_WINDOW_SCRIPT, type RateDecision } from './rate-window.js';

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
  ) {}

  async hit(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision | null> {
    try {
      const counting = (redis: Redis) => redis.eval(FIXED_WINDOW_SCRIPT, 1, `gateway:ratelimit:${bucket}`, String(windowSeconds * 1000)) as Promise<[number, number]>;
      const [count, ttlMs] = await callRedis(this.redis, counting, this.config.RATE_LIMIT_REDIS_TIMEOUT_MS, 'rate limiter');
      return decideRate(count, limit, ttlMs);
    } catch (error) {
      this.logger.warn({ err: error, bucket }, 'rate limiter unavailable; request let through');
      return null;
    }
  }
}
