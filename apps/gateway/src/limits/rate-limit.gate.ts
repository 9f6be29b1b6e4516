import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/api-key.js';
import type { KeyLookupGuard } from '../auth/api-key.service.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import { clientAddressBucket } from './client-address.js';
import { isCountedAlready } from './counted-requests.js';
import type { RateLimitBucket } from './rate-limited.decorator.js';
import { RateLimiter } from './rate-limiter.js';
import { rateLimitHeaders, type RateDecision } from './rate-window.js';

/** Client addresses refused unknown keys on this replica at most (see `keyLookups`). */
const GUESSERS_KEPT = 10_000;

/**
 * The first gate after authentication (DoorInterceptor): a refused request does no work,
 * returns no jobs and charges nothing. The RateLimit-* headers are set on the reply here, so
 * they accompany every later outcome of the request, errors included.
 */
@Injectable()
export class RateLimitGate {
  /** Addresses past their unknown keys, until their window ends. */
  private readonly guessers = new Map<string, { until: number; limit: number }>();

  constructor(
    private readonly limiter: RateLimiter,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * Counts the request in its bucket (the route's, else its account's); throws 429 beyond the
   * limit. The dashboard API counts in its account's bucket like the public API (the session's
   * key resolved to the account); its replay route also in a tighter bucket of its own. An MCP
   * tool call's API request was counted with its MCP POST (`countBatch`) and is not counted again.
   */
  async pass(request: FastifyRequest, reply: FastifyReply, bucket: RateLimitBucket | undefined): Promise<void> {
    if (bucket === 'never') return;
    if (bucket === 'client-address') {
      await this.count(reply, {
        key: `ip:${clientAddressBucket(request.ip)}`,
        limit: this.config.SANDBOX_RATE_LIMIT,
        windowSeconds: this.config.SANDBOX_RATE_LIMIT_WINDOW_SECONDS,
      });
      return;
    }
    if (bucket === 'dashboard-sign-in') {
      await this.count(reply, {
        key: `dashboard-sign-in:${clientAddressBucket(request.ip)}`,
        limit: this.config.DASHBOARD_SIGN_IN_RATE_LIMIT,
        windowSeconds: 60,
      });
      return;
    }
    // The account's limit came with its key (ApiKeyService), read once per request at most.
    const account = request.principal ?? request.dashboard?.principal;
    if (!account || isCountedAlready()) return;
    const accountDecision = await this.count(reply, accountWindow(account));
    if (bucket === 'dashboard-replay') {
      const limit = Math.min(this.config.DASHBOARD_REPLAY_RATE_LIMIT, account.rateLimit);
      await this.count(
        reply,
        {
          key: `dashboard-replay:${account.accountId}`,
          limit,
          windowSeconds: this.config.DASHBOARD_REPLAY_RATE_LIMIT_WINDOW_SECONDS,
        },
        accountDecision,
      );
    }
  }

  /**
   * The lookups of one request's API key, for a client address that sends keys this service does
   * not know (guessing): each key neither cache knew and PostgreSQL did not have is counted per
   * address (API_KEY_LOOKUP_RATE_LIMIT a minute, shared by the replicas); past it, this replica
   * refuses the address's next unknown keys 429 before looking them up, until the window ends, so
   * the guesses take no more of the database connections every account's requests need. Real keys
   * cost nothing here.
   */
  keyLookups(request: FastifyRequest, reply: FastifyReply): KeyLookupGuard {
    const address = clientAddressBucket(request.ip);
    return {
      before: () => {
        const refused = this.guessers.get(address);
        if (!refused) return;
        const resetSeconds = Math.ceil((refused.until - Date.now()) / 1000);
        if (resetSeconds <= 0) {
          this.guessers.delete(address);
          return;
        }
        const decision = { allowed: false, limit: refused.limit, remaining: 0, resetSeconds };
        const headers = rateLimitHeaders(decision);
        for (const name in headers) void reply.header(name, headers[name]);
        throw new ApiError(
          'rate_limited',
          `More than ${refused.limit} API keys this service does not know were sent from your address within a ` +
            `minute. Retry after ${resetSeconds} s.`,
        );
      },
      unknown: async () => {
        const limit = this.config.API_KEY_LOOKUP_RATE_LIMIT;
        const decision = await this.limiter.hit(`unknown-keys:${address}`, limit, 60);
        if (!decision || decision.allowed) return;
        // bounded: a flood from ever new addresses starts the map over rather than grow it
        if (this.guessers.size >= GUESSERS_KEPT) this.guessers.clear();
        this.guessers.set(address, { until: Date.now() + decision.resetSeconds * 1000, limit });
      },
    };
  }

  /**
   * Counts `requests` requests of `account` at once in its bucket, all or none: an MCP POST, one
   * per JSON-RPC message it carries. Beyond what is left of the window the whole batch is
   * refused with 429 and takes nothing. A batch larger than the whole limit could never pass:
   * it is refused with 400, not with a 429 that waiting would not cure.
   */
  async countBatch(account: Principal, reply: FastifyReply, requests: number): Promise<void> {
    const window = accountWindow(account);
    if (requests > window.limit) {
      throw new ApiError(
        'invalid_request',
        `This batch holds ${requests} JSON-RPC messages, more than your rate limit of ${window.limit} requests per ` +
          `${window.windowSeconds} s allows at once: send at most ${window.limit} per POST.`,
        { param: 'body' },
      );
    }
    await this.count(reply, window, undefined, requests);
  }

  /**
   * `weight` hits in one bucket, all or none. The RateLimit-* headers report the bucket with the
   * fewest requests left (`before`: the decision of a wider bucket this request already counted in).
   */
  private async count(
    reply: FastifyReply,
    window: RateWindow,
    before?: RateDecision | null,
    weight = 1,
  ): Promise<RateDecision | null> {
    const decision = await this.limiter.hit(window.key, window.limit, window.windowSeconds, weight);
    if (!decision) return before ?? null;
    if (!before || decision.remaining <= before.remaining || !decision.allowed) {
      const headers = rateLimitHeaders(decision);
      for (const name in headers) void reply.header(name, headers[name]);
    }
    if (!decision.allowed) {
      const rule = `Rate limit of ${window.limit} requests per ${window.windowSeconds} s`;
      const outcome =
        weight === 1
          ? `${rule} exceeded.`
          : `${rule}: ${decision.remaining} left in this window, fewer than the ${weight} messages of this batch ` +
            '(a batch is counted whole or not at all; nothing was counted).';
      throw new ApiError('rate_limited', `${outcome} Retry after ${decision.resetSeconds} s.`);
    }
    return decision;
  }
}

interface RateWindow {
  key: string;
  limit: number;
  windowSeconds: number;
}

/** The account's own bucket, shared by the public API, the dashboard API and MCP. */
function accountWindow(account: Principal): RateWindow {
  return {
    key: `account:${account.accountId}`,
    limit: account.rateLimit,
    windowSeconds: account.rateLimitWindowSeconds,
  };
}
