import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import type { RateLimitBucket } from './rate-limited.decorator.js';
import { RateLimiter } from './rate-limiter.js';
import { rateLimitHeaders } from './rate-window.js';

/**
 * The first gate after authentication (DoorInterceptor): a refused request does no work,
 * returns no jobs and charges nothing. The RateLimit-* headers are set on the reply here, so
 * they accompany every later outcome of the request, errors included.
 */
@Injectable()
export class RateLimitGate {
  constructor(
    private readonly limiter: RateLimiter,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Counts the request in its bucket (the route's, else its account's); throws 429 beyond the limit. */
  async pass(request: FastifyRequest, reply: FastifyReply, bucket: RateLimitBucket | undefined): Promise<void> {
    let key: string;
    let limit: number;
    let windowSeconds: number;
    if (bucket === 'client-address') {
      key = `ip:${request.ip}`;
      limit = this.config.SANDBOX_RATE_LIMIT;
      windowSeconds = this.config.SANDBOX_RATE_LIMIT_WINDOW_SECONDS;
    } else if (bucket === 'dashboard-sign-in') {
      key = `dashboard-sign-in:${request.ip}`;
      limit = this.config.DASHBOARD_SIGN_IN_RATE_LIMIT;
      windowSeconds = 60;
    } else {
      // The account's limit came with its key (ApiKeyService), read once per request at most.
      const account = request.principal;
      if (!account) return;
      key = `account:${account.accountId}`;
      limit = account.rateLimit;
      windowSeconds = account.rateLimitWindowSeconds;
    }
    const decision = await this.limiter.hit(key, limit, windowSeconds);
    if (!decision) return;
    const headers = rateLimitHeaders(decision);
    for (const name in headers) void reply.header(name, headers[name]);
    if (!decision.allowed) {
      throw new ApiError('rate_limited', `Rate limit of ${limit} requests per ${windowSeconds} s exceeded. Retry after ${decision.resetSeconds} s.`);
    }
  }
}
