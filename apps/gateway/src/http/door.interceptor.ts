import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { finalize, tap, type Observable } from 'rxjs';
import { ERROR_CATALOG } from '@jobs/contracts';
import { AdmissionGate } from '../admission/admission.gate.js';
import { ADMISSION_POOL, type AdmissionPool } from '../admission/admitted.decorator.js';
import { IdempotencyGate } from '../idempotency/idempotency.gate.js';
import { REATTACHES_SEARCH } from '../idempotency/idempotent-search.decorator.js';
import { RATE_LIMIT_BUCKET, type RateLimitBucket } from '../limits/rate-limited.decorator.js';
import { RateLimitGate } from '../limits/rate-limit.gate.js';
import { ServiceVersionGate } from '../versioning/service-version.gate.js';
import { ApiError } from './api-error.js';
import { StoredResponse } from './stored-response.js';

/** What the door reads from a route's decorators, once per route. */
interface RouteDoor {
  rateLimitBucket: RateLimitBucket | undefined;
  admissionPool: AdmissionPool | undefined;
  reattachesSearch: boolean;
}

/**
 * The door after authentication, its gates in this order: the rate limit decides before any
 * work; then the pinned version is reported; then admission by the work in flight (a brief fair
 * wait, 503 when it cannot be met, before any record or work); then Idempotency-Key (a replay is a request too, so it
 * counts against the limit). An unsupported version was refused before the key was checked
 * (ServiceVersionGuard). One global interceptor runs the gates, not one interceptor each: Nest
 * wraps every interceptor in rxjs layers on every request, a cost `npm run bench -- account` shows.
 */
@Injectable()
export class DoorInterceptor implements NestInterceptor {
  private readonly routes = new WeakMap<object, RouteDoor>();

  constructor(
    private readonly reflector: Reflector,
    private readonly rateLimit: RateLimitGate,
    private readonly version: ServiceVersionGate,
    private readonly admission: AdmissionGate,
    private readonly idempotency: IdempotencyGate,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const route = this.route(context);
    await this.rateLimit.pass(request, reply, route.rateLimitBucket);
    this.version.pass(request, reply);
    const release = await this.admission.pass(request, reply, route.admissionPool);
    try {
      await this.idempotency.pass(request, reply, route.reattachesSearch);
    } catch (error) {
      release?.(true);
      throw error;
    }
    if (!release) return next.handle();
    // An admitted request holds its slot until the response is decided, whatever the outcome;
    // only work that ran teaches the limit how long work takes.
    let turnedAway = false;
    return next.handle().pipe(
      tap({ error: (error: unknown) => (turnedAway = isTurnedAway(error)) }),
      finalize(() => release(turnedAway)),
    );
  }

  private route(context: ExecutionContext): RouteDoor {
    const handler = context.getHandler();
    let route = this.routes.get(handler);
    if (!route) {
      const targets = [handler, context.getClass()];
      route = {
        rateLimitBucket: this.reflector.getAllAndOverride<RateLimitBucket | undefined>(RATE_LIMIT_BUCKET, targets),
        admissionPool: this.reflector.getAllAndOverride<AdmissionPool | undefined>(ADMISSION_POOL, targets),
        reattachesSearch: this.reflector.getAllAndOverride<boolean | undefined>(REATTACHES_SEARCH, targets) ?? false,
      };
      this.routes.set(handler, route);
    }
    return route;
  }
}

/** A refusal or a replay: the request's own work did not run (a 5xx did, or tried to). */
function isTurnedAway(error: unknown): boolean {
  if (error instanceof StoredResponse) return true;
  if (error instanceof ApiError) return (error.status ?? ERROR_CATALOG[error.code].status) < 500;
  return false;
}
