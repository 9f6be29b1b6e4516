import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { callRedis } from '@jobs/redis';
import { LOGGER } from '@jobs/service-kit';
import type { Logger } from '@jobs/observability';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { BatchedHits } from './batched-hits.js';
import { decideRate, TAKE_HITS_SCRIPT, type RateDecision } from './rate-window.js';

// The name carries the script's shape: a replica of an earlier gateway defines its own.
const TAKE_COMMAND = 'gatewayRateWindowTakeHits';
type TakingRedis = Record<typeof TAKE_COMMAND, (key: string, ...args: string[]) => Promise<number[]>>;

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
    if (!(TAKE_COMMAND in redis)) redis.defineCommand(TAKE_COMMAND, { numberOfKeys: 1, lua: TAKE_HITS_SCRIPT });
    this.hits = new BatchedHits(async (bucket, windowMs, requests) => {
      const args = [String(windowMs), ...requests.flatMap(({ weight, limit }) => [String(weight), String(limit)])];
      const taking = (client: Redis) =>
        (client as unknown as TakingRedis)[TAKE_COMMAND](`gateway:ratelimit:${bucket}`, ...args);
      const [ttlMs = 0, ...places] = await callRedis(
        this.redis,
        taking,
        this.config.RATE_LIMIT_REDIS_TIMEOUT_MS,
        'rate limiter',
      );
      return { ttlMs, places };
    });
  }

  /**
   * Takes `weight` requests (1, or an MCP POST's messages) at once in `bucket`'s window of
   * `limit` requests, or none when they do not all fit. Null when Redis is away.
   */
  async hit(bucket: string, limit: number, windowSeconds: number, weight = 1): Promise<RateDecision | null> {
    try {
      const place = await this.hits.hit(bucket, windowSeconds * 1000, { weight, limit });
      return decideRate(place, limit);
    } catch (error) {
      this.logger.warn({ err: error, bucket }, 'rate limiter unavailable; request let through');
      return null;
    }
  }
}
