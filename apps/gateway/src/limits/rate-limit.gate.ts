import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import type { RateLimitBucket } from './rate-limited.decorator.js';
import { RateLimiter } from './rate-limiter.js';
import { rateLimitHeaders, type RateDecision } from './rate-window.js';

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

  /**
   * Counts the request in its bucket (the route's, else its account's); throws 429 beyond the
   * limit. The dashboard API counts in its account's bucket like the public API (the session's
   * key resolved to the account); its replay route also in a tighter bucket of its own.
   */
  async pass(request: FastifyRequest, reply: FastifyReply, bucket: RateLimitBucket | undefined): Promise<void> {
    if (bucket === 'client-address') {
      await this.count(reply, {
        key: `ip:${request.ip}`,
        limit: this.config.SANDBOX_RATE_LIMIT,
        windowSeconds: this.config.SANDBOX_RATE_LIMIT_WINDOW_SECONDS,
      });
      return;
    }
    if (bucket === 'dashboard-sign-in') {
      await this.count(reply, {
        key: `dashboard-sign-in:${request.ip}`,
        limit: this.config.DASHBOARD_SIGN_IN_RATE_LIMIT,
        windowSeconds: 60,
      });
      return;
    }
    // The account's limit came with its key (ApiKeyService), read once per request at most.
    const account = request.principal ?? request.dashboard?.principal;
    if (!account) return;
    const accountWindow = await this.count(reply, {
      key: `account:${account.accountId}`,
      limit: account.rateLimit,
      windowSeconds: account.rateLimitWindowSeconds,
    });
    if (bucket === 'dashboard-replay') {
      const limit = Math.min(this.config.DASHBOARD_REPLAY_RATE_LIMIT, account.rateLimit);
      await this.count(
        reply,
        {
          key: `dashboard-replay:${account.accountId}`,
          limit,
          windowSeconds: this.config.DASHBOARD_REPLAY_RATE_LIMIT_WINDOW_SECONDS,
        },
        accountWindow,
      );
    }
  }

  /**
   * One hit in one bucket. The RateLimit-* headers report the bucket with the fewest requests
   * left (`before`: the decision of a wider bucket this request already counted in).
   */
  private async count(
    reply: FastifyReply,
    window: { key: string; limit: number; windowSeconds: number },
    before?: RateDecision | null,
  ): Promise<RateDecision | null> {
    const decision = await this.limiter.hit(window.key, window.limit, window.windowSeconds);
    if (!decision) return before ?? null;
    if (!before || decision.remaining <= before.remaining || !decision.allowed) {
      const headers = rateLimitHeaders(decision);
      for (const name in headers) void reply.header(name, headers[name]);
    }
    if (!decision.allowed) {
      throw new ApiError(
        'rate_limited',
        `Rate limit of ${window.limit} requests per ` +
          `${window.windowSeconds} s exceeded. Retry after ` +
          `${decision.resetSeconds} s.`,
      );
    }
    return decision;
  }
}
