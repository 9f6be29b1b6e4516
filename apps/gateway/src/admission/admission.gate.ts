import { Inject, Injectable } from '@nestjs/common';
import type { Counter, Histogram } from '@opentelemetry/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { jobsMeter } from '@jobs/observability';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import type { AdmissionPool } from './admitted.decorator.js';
import { FairQueue } from './fair-queue.js';
import { InFlightLimit } from './in-flight-limit.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** How long admission kept the request waiting for a slot (ms): it comes off the search's budget. */
    admissionWaitMs?: number;
    /** The answer waited out its deadline on a partner that did not answer (its latency is not the pipeline's). */
    answerWaitedOnPartner?: boolean;
  }
}

/**
 * Admission control: the gate after the rate limit (an account over its own limit gets 429
 * first) and before Idempotency-Key (a refused request leaves no record, so its retry with the
 * same key simply runs; DoorInterceptor). Each pool is an adaptive in-flight limit with a fair
 * queue in front (FairQueue): a search that cannot start at once waits briefly, freed slots go
 * to the waiting account holding the fewest, and a request is refused (503 with the
 * `rate_limited` envelope and `Retry-After`) only when its wait cannot be met. The slot is held
 * until the response is decided, whatever the outcome. Test-key searches (the sandbox's fixed
 * data, no pipeline) are not counted.
 */
@Injectable()
export class AdmissionGate {
  private readonly pools: Record<AdmissionPool, FairQueue>;
  private readonly refused: Counter;
  private readonly waited: Histogram;
  private readonly replyGraceMs: number;

  /**
   * Each pool's queue and in-flight limit (the replicas exchange their unloaded latencies and recent accounts:
   * AdmissionBaselineExchange).
   */
  get queues(): ReadonlyArray<[AdmissionPool, FairQueue]> {
    return Object.entries(this.pools).map(([pool, queue]) => [pool as AdmissionPool, queue]);
  }

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.replyGraceMs = config.SEARCH_REPLY_GRACE_MS;
    const limit = new InFlightLimit({
      min: Math.min(config.SEARCH_MIN_IN_FLIGHT, config.SEARCH_MAX_IN_FLIGHT),
      max: config.SEARCH_MAX_IN_FLIGHT,
      start: config.SEARCH_START_IN_FLIGHT,
      window: config.SEARCH_ADMISSION_WINDOW,
      tolerance: config.SEARCH_LATENCY_TOLERANCE,
      sharedTolerance: config.SEARCH_SHARED_LATENCY_TOLERANCE,
      floorMs: config.SEARCH_LATENCY_FLOOR_MS,
    });
    this.pools = {
      'sync-search': new FairQueue(limit, {
        maxQueued: config.SEARCH_QUEUE_MAX,
        maxWaitMs: config.SEARCH_QUEUE_MAX_WAIT_MS,
        accountFloor: config.SEARCH_ACCOUNT_FLOOR_IN_FLIGHT,
      }),
    };
    const meter = jobsMeter();
    this.refused = meter.createCounter('gateway_admission_refused_total', {
      description:
        'Requests refused with 503 by admission, by pool, plan and ' +
        'reason (queue_full, wait_too_long, timed_out, abandoned).',
    });
    this.waited = meter.createHistogram('gateway_admission_wait_seconds', {
      description: 'How long admitted requests waited for a slot (0 when admitted at once), by pool and plan.',
      unit: 's',
      advice: { explicitBucketBoundaries: [0, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] },
    });
    meter
      .createObservableGauge('gateway_admission_in_flight', {
        description: 'Admitted requests in flight on this replica, by pool.',
      })
      .addCallback((result) => {
        for (const [pool, queue] of Object.entries(this.pools)) result.observe(queue.limit.current, { pool });
      });
    meter
      .createObservableGauge('gateway_admission_limit', {
        description:
          'How many requests this replica admits at once now (adaptive, ' +
          'SEARCH_MIN_IN_FLIGHT..SEARCH_MAX_IN_FLIGHT), by pool.',
      })
      .addCallback((result) => {
        for (const [pool, queue] of Object.entries(this.pools)) result.observe(queue.limit.limit, { pool });
      });
    meter
      .createObservableGauge('gateway_admission_unloaded_latency_seconds', {
        description:
          'The p50 latency of work that ran nearly alone on this ' +
          'replica, by pool: the adaptive limit holds the p95 to ' +
          'SEARCH_LATENCY_TOLERANCE times it.',
        unit: 's',
      })
      .addCallback((result) => {
        for (const [pool, queue] of Object.entries(this.pools)) {
          const unloaded = queue.limit.unloadedP50Ms;
          if (unloaded !== undefined) result.observe(unloaded / 1000, { pool });
        }
      });
    meter
      .createObservableGauge('gateway_admission_shared', {
        description:
          '1 while several accounts sent searches lately to any replica (the limit then holds ' +
          'the p95 to SEARCH_SHARED_LATENCY_TOLERANCE times the unloaded latency), else 0, by pool.',
      })
      .addCallback((result) => {
        for (const [pool, queue] of Object.entries(this.pools)) result.observe(queue.limit.sharing ? 1 : 0, { pool });
      });
    meter
      .createObservableGauge('gateway_admission_queued', {
        description: 'Requests waiting for a slot on this replica, by pool.',
      })
      .addCallback((result) => {
        for (const [pool, queue] of Object.entries(this.pools)) result.observe(queue.length, { pool });
      });
  }

  /**
   * Takes a slot of the route's pool for a live-key request, waiting for one if need be, or
   * throws 503 when the wait cannot be met. Returns the slot's release (the caller runs it once
   * the response is decided, saying whether the request was turned away before its work ran), or
   * nothing when the request is not counted.
   */
  async pass(
    request: FastifyRequest,
    reply: FastifyReply,
    pool: AdmissionPool | undefined,
  ): Promise<((turnedAway: boolean) => void) | undefined> {
    const principal = request.principal;
    if (!pool || principal?.mode !== 'live') return undefined;
    const gone = new AbortController();
    const deadline = deadlineMs(request.body);
    // The limit shrinks at once for a search that outlives the gateway's wait for its answer (it
    // would end in a 500), not for one answered a little after its own tight deadline: a client's
    // short timeouts must not shrink every other account's capacity.
    const ceiling = deadline + this.replyGraceMs;
    let entered = this.pools[pool].enter({
      account: principal.accountId,
      deadlineMs: deadline,
      ceilingMs: ceiling,
      signal: gone.signal,
    });
    if (entered instanceof Promise) {
      // A caller who goes away while waiting gives its place up.
      const onClose = () => {
        if (!reply.raw.writableFinished) gone.abort();
      };
      reply.raw.once('close', onClose);
      entered = await entered.finally(() => reply.raw.off('close', onClose));
    }
    const labels = { pool, plan: principal.plan };
    if ('reason' in entered) {
      this.refused.add(1, { ...labels, reason: entered.reason });
      throw overloaded(entered.retryAfterSeconds);
    }
    this.waited.record(entered.waitedMs / 1000, labels);
    request.admissionWaitMs = entered.waitedMs;
    return (turnedAway) => entered.release({ dependencyBound: request.answerWaitedOnPartner === true, turnedAway });
  }
}

/**
 * Only what admission reads of a search body, before validation (which comes later and answers a bad body with 400).
 */
const SearchTimeoutSchema = z.object({ waterfall: z.object({ timeout_ms: z.number().int().min(1000).max(30_000) }) });
const DEFAULT_TIMEOUT_MS = 10_000;

/** A sync search's own `waterfall.timeout_ms`: the caller's deadline for its answer. */
function deadlineMs(body: unknown): number {
  const parsed = SearchTimeoutSchema.safeParse(body);
  return parsed.success ? parsed.data.waterfall.timeout_ms : DEFAULT_TIMEOUT_MS;
}

/** The spec has no code for "the service is at capacity": see docs/decisions/0015-admission-refusal.md. */
export function overloaded(retryAfterSeconds: number): ApiError {
  return new ApiError(
    'rate_limited',
    `The service is at capacity right now; nothing was run or charged. Retry after ${retryAfterSeconds} s.`,
    {},
    { 'Retry-After': String(retryAfterSeconds) },
    503,
  );
}
