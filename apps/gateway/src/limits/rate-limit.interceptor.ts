import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import { RATE_LIMIT_BUCKET, type RateLimitBucket } from './rate-limited.decorator.js';
import { RateLimiter } from './rate-limiter.js';
import { rateLimitHeaders } from './rate-window.js';

/**
 * The first step after authentication (a global interceptor runs after every guard and before
 * validation and the handler): a refused request does no work, returns no jobs and charges
 * nothing. The RateLimit-* headers are set on the reply here, so they accompany every later
 * outcome of the request, errors included.
 */
@Injectable()
export class RateLimitInterceptor implements NestInterceptor {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly reflector: Reflector,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const bucket = this.reflector.getAllAndOverride<RateLimitBucket | undefined>(RATE_LIMIT_BUCKET, [context.getHandler(), context.getClass()]);

    let key: string;
    let limit: number;
    let windowSeconds: number;
    if (bucket === 'client-address') {
      key = `ip:${request.ip}`;
      limit = this.config.SANDBOX_RATE_LIMIT;
      windowSeconds = this.config.SANDBOX_RATE_LIMIT_WINDOW_SECONDS;
    } else {
      // The account's limit came with its key (ApiKeyService), read once per request at most.
      const account = request.principal;
      if (!account) return next.handle();
      key = `account:${account.accountId}`;
      limit = account.rateLimit;
      windowSeconds = account.rateLimitWindowSeconds;
    }

    const decision = await this.limiter.hit(key, limit, windowSeconds);
    if (!decision) return next.handle();
    const headers = rateLimitHeaders(decision);
    for (const [name, value] of Object.entries(headers)) void reply.header(name, value);
    if (!decision.allowed) {
      throw new ApiError('rate_limited', `Rate limit of ${limit} requests per ${windowSeconds} s exceeded. Retry after ${decision.resetSeconds} s.`);
    }
    return next.handle();
  }
}
