import { Inject, Injectable } from '@nestjs/common';
import type { Counter } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { jobsMeter } from '@jobs/observability';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import type { AdmissionPool } from './admitted.decorator.js';
import { InFlightLimit, isRefusal } from './in-flight-limit.js';

/**
 * Admission control (issue 14): the gate after the rate limit (an account over its own limit
 * gets 429 first) and before Idempotency-Key (a refused request leaves no record, so its retry
 * with the same key simply runs; DoorInterceptor). Beyond capacity the answer is 503 with the
 * `rate_limited` envelope and `Retry-After`, at once and without any I/O; the slot is held
 * until the response is decided, whatever the outcome. Test-key searches (the sandbox's fixed
 * data, no pipeline) are not counted.
 */
@Injectable()
export class AdmissionGate {
  private readonly pools: Record<AdmissionPool, InFlightLimit>;
  private readonly refused: Counter;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.pools = { 'sync-search': new InFlightLimit({ min: Math.min(config.SEARCH_MIN_IN_FLIGHT, config.SEARCH_MAX_IN_FLIGHT), max: config.SEARCH_MAX_IN_FLIGHT, start: config.SEARCH_START_IN_FLIGHT, window: config.SEARCH_ADMISSION_WINDOW, floorMs: config.SEARCH_LATENCY_FLOOR_MS }) };
    const meter = jobsMeter();
    this.refused = meter.createCounter('gateway_admission_refused_total', { description: 'Requests refused with 503 because the work in flight on this replica was at capacity, by pool.' });
    meter
      .createObservableGauge('gateway_admission_in_flight', { description: 'Admitted requests in flight on this replica, by pool.' })
      .addCallback((result) => {
        for (const [pool, limit] of Object.entries(this.pools)) result.observe(limit.current, { pool });
      });
    meter
      .createObservableGauge('gateway_admission_limit', { description: 'How many requests this replica admits at once now (adaptive, SEARCH_MIN_IN_FLIGHT..SEARCH_MAX_IN_FLIGHT), by pool.' })
      .addCallback((result) => {
        for (const [pool, limit] of Object.entries(this.pools)) result.observe(limit.limit, { pool });
      });
  }

  /**
   * Takes a slot of the route's pool for a live-key request, or throws 503 beyond capacity.
   * Returns the slot's release (the caller runs it once the response is decided), or nothing
   * when the request is not counted.
   */
  pass(request: FastifyRequest, pool: AdmissionPool | undefined): (() => void) | undefined {
    if (!pool || request.principal?.mode !== 'live') return undefined;
    const admission = this.pools[pool].tryEnter(ceilingMs(request.body));
    if (isRefusal(admission)) {
      this.refused.add(1, { pool });
      throw overloaded(admission.retryAfterSeconds);
    }
    return () => admission.release();
  }
}

/** Only what admission reads of a search body, before validation (which comes later and answers a bad body with 400). */
const SearchTimeoutSchema = z.object({ waterfall: z.object({ timeout_ms: z.number().int().min(1000).max(30_000) }) });
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The longest a sync search's caller should wait: its own `waterfall.timeout_ms` (the gateway
 * waits 5 s more before answering 500, so the limit shrinks well before that).
 */
function ceilingMs(body: unknown): number {
  const parsed = SearchTimeoutSchema.safeParse(body);
  return parsed.success ? parsed.data.waterfall.timeout_ms : DEFAULT_TIMEOUT_MS;
}

/** The spec has no code for "the service is at capacity": see README, "Choices where the spec is silent". */
export function overloaded(retryAfterSeconds: number): ApiError {
  return new ApiError(
    'rate_limited',
    `The service is at capacity right now; nothing was run or charged. Retry after ${retryAfterSeconds} s.`,
    {},
    { 'Retry-After': String(retryAfterSeconds) },
    503,
  );
}
