import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { callRedis } from '@jobs/redis';
import { LOGGER } from '@jobs/service-kit';
import type { Logger } from '@jobs/observability';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { BatchedHits } from './batched-hits.js';
import { decideRate, FIXED_WINDOW_SCRIPT, type RateDecision } from './rate-window.js';

// The name carries the script's shape: a replica of an earlier gateway (one argument) defines its own.
const COUNT_COMMAND = 'gatewayRateWindowCountHits';
type CountingRedis = Record<
  typeof COUNT_COMMAND,
  (key: string, windowMs: string, hits: string) => Promise<[number, number]>
>;

/**
 * Counts requests per bucket in Redis: the requests of one bucket in one event-loop turn with one
 * script call (BatchedHits), each answered with its own place in the window. When Redis is
 * disconnected or does not answer in time the request is let through without rate-limit headers
 * (fail open): an outage of the counter should not take the API down with it, and the caller is
 * still authenticated and billed correctly.
 */
@Injectable()
export class RateLimiter {
  private readonly hits: BatchedHits;

  constructor(
    private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    // A defined command is sent as EVALSHA (the script is loaded once, EVAL only as fallback): the
    // script's text no longer travels, nor is hashed by Redis, with every request.
    if (!(COUNT_COMMAND in redis)) redis.defineCommand(COUNT_COMMAND, { numberOfKeys: 1, lua: FIXED_WINDOW_SCRIPT });
    this.hits = new BatchedHits((bucket, hits, windowMs) => {
      const counting = (client: Redis) =>
        (client as unknown as CountingRedis)[COUNT_COMMAND](
          `gateway:ratelimit:${bucket}`,
          String(windowMs),
          String(hits),
        );
      return callRedis(this.redis, counting, this.config.RATE_LIMIT_REDIS_TIMEOUT_MS, 'rate limiter');
    });
  }

  async hit(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision | null> {
    try {
      const { count, ttlMs } = await this.hits.hit(bucket, windowSeconds * 1000);
      return decideRate(count, limit, ttlMs);
    } catch (error) {
      this.logger.warn({ err: error, bucket }, 'rate limiter unavailable; request let through');
      return null;
    }
  }
}
