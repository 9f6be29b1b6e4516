import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { PrismaService } from '@jobs/db';
import { requestContext, untraced, type Logger } from '@jobs/observability';
import { DrainRegistry, KickableLoop, LOGGER, ReadinessRegistry } from '@jobs/service-kit';
import { webhookSecretFor } from '@jobs/webhook-targets';
import { DISPATCHER_CONFIG, type DispatcherConfig } from '../config.js';
import { DeliveryMetrics } from './delivery-metrics.js';
import { DeliveryStore, type AttemptOutcome, type ClaimedAttempt, type FinishedAttempt, type NextState } from './delivery-store.js';
import { EndpointSlots } from './endpoint-slots.js';
import { GroupCommit } from './group-commit.js';
import { signatureHeader } from './signature.js';
import { WebhookSender } from './webhook-sender.js';

/**
 * The longest the worker sleeps without looking for due deliveries. New deliveries and replays
 * kick it and retries wake it at their due time, so this only bounds how late it notices what
 * nothing told it about (another replica's lost lease, a clock step).
 */
const IDLE_POLL_MS = 5_000;
/** Due deliveries it could not take (their endpoints' slots are busy): an ending attempt kicks it. */
const SATURATED_POLL_MS = 1_000;
/** Deliveries one claim takes at most (one statement). */
const CLAIM_BATCH = 64;
/** Attempts whose ends one statement records at most. */
const FINISH_BATCH = 500;

/**
 * Sends due deliveries. Each pass claims what is due within the free slots (endpoints round
 * robin, none beyond its own slots) and starts those attempts without waiting for them: a 10 s
 * hang on one endpoint holds that endpoint's slots only. An attempt's slot is free as soon as its
 * POST ends; the ends of attempts that finish together are recorded in one statement. Every
 * replica runs one; PostgreSQL (SKIP LOCKED claims, leases) shares the work among them.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap {
  private readonly slots: EndpointSlots;
  private readonly sender: WebhookSender;
  private readonly finishes: GroupCommit<FinishedAttempt, NextState>;
  private readonly running = new Set<Promise<void>>();
  private healthy = true;
  private readonly metrics = new DeliveryMetrics();
  private readonly tracer = trace.getTracer('@jobs/webhook-dispatcher');
  /** One claiming pass at a time; it says when to look again (a failed pass: in a second). */
  private readonly loop = new KickableLoop(() =>
    this.claimAndStart().then(
      (wakeInMs) => {
        this.healthy = true;
        return wakeInMs;
      },
      (error: unknown) => {
        this.healthy = false;
        this.logger.warn({ err: error }, 'delivery pass failed; will retry');
        return 1000;
      },
    ),
  );

  constructor(
    private readonly store: DeliveryStore,
    private readonly prisma: PrismaService,
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    drains: DrainRegistry,
    readiness: ReadinessRegistry,
  ) {
    this.slots = new EndpointSlots(config.WEBHOOK_CONCURRENCY, config.WEBHOOK_ENDPOINT_CONCURRENCY);
    this.sender = new WebhookSender({ allowPrivate: config.WEBHOOK_ALLOW_PRIVATE, connectionsPerOrigin: config.WEBHOOK_CONCURRENCY });
    // The bookkeeping write belongs to no one delivery's trace.
    this.finishes = new GroupCommit((finished) => untraced(() => this.store.finishMany(finished, config.WEBHOOK_RETRY_SCALE)), FINISH_BATCH);
    drains.register('delivery-worker', () => this.stop());
    readiness.register('delivery-worker', () => !this.loop.isStopped && this.healthy);
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** Look for due deliveries now (a new event was stored, an attempt ended). */
  kick(): void {
    this.loop.kick();
  }

  /** Stops claiming, waits for the attempts under way (each ends within its deadline) and their records. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.running]);
    await this.finishes.flushed();
    await this.sender.close();
  }

  /** Claims and starts attempts while slots and due deliveries remain; returns when to look again. */
  private async claimAndStart(): Promise<number> {
    while (!this.loop.isStopped && this.slots.free > 0) {
      const asked = Math.min(CLAIM_BATCH, this.slots.free);
      // The probe is untraced (an idle worker would otherwise make a trace per look); each attempt continues its event's trace.
      const claims = await untraced(() => this.store.claimDue(new Date(), asked, this.slots.byEndpoint(), this.config.WEBHOOK_ENDPOINT_CONCURRENCY));
      for (const claim of claims) this.start(claim);
      if (claims.length < asked) break;
    }
    // Attempts under way kick a pass as each ends; meanwhile a retry falling due waits a second at most.
    if (this.slots.size > 0) return SATURATED_POLL_MS;
    const nextDue = await untraced(() => this.store.nextDueAt());
    if (!nextDue) return IDLE_POLL_MS;
    const wait = nextDue.getTime() - Date.now();
    // Due now yet not claimed (it just became due, or another replica holds it): look again soon.
    return wait > 0 ? Math.min(IDLE_POLL_MS, wait) : 50;
  }

  private start(claim: ClaimedAttempt): void {
    if (!this.slots.tryTake(claim.url)) {
      // Cannot happen (claims respect the free slots); the lease makes it due again anyway.
      this.logger.warn({ delivery_id: claim.deliveryId }, 'claimed a delivery without a free slot');
      return;
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.slots.release(claim.url);
      this.kick();
    };
    // The attempt continues the trace (and carries the request id) of the work that made the delivery.
    const parent = claim.traceParent ? propagation.extract(ROOT_CONTEXT, { traceparent: claim.traceParent }) : ROOT_CONTEXT;
    const work = context
      .with(parent, () => requestContext.run({ requestId: claim.requestId ?? claim.deliveryId, stages: [] }, () => this.attempt(claim, release)))
      .catch((error: unknown) => this.logger.error({ err: error, delivery_id: claim.deliveryId, event_id: claim.eventId }, 'webhook attempt could not be recorded; its lease will expire and it runs again'))
      .finally(() => {
        release();
        this.running.delete(work);
      });
    this.running.add(work);
  }

  private async attempt(claim: ClaimedAttempt, release: () => void): Promise<void> {
    const span = this.tracer.startSpan('webhook deliver', {
      kind: SpanKind.CLIENT,
      attributes: {
        'jobs.event.id': claim.eventId,
        'jobs.delivery.id': claim.deliveryId,
        'jobs.delivery.kind': claim.kind,
        'jobs.delivery.attempt': claim.attempt,
        'server.address': hostOf(claim.url),
      },
    });
    const startedAt = new Date();
    let outcome: AttemptOutcome;
    try {
      outcome = await context.with(trace.setSpan(context.active(), span), async () => {
        const secret = claim.secret ?? (await webhookSecretFor(this.prisma, claim.accountId, claim.url));
        const signature = signatureHeader(secret, Math.floor(startedAt.getTime() / 1000), claim.body);
        return this.sender.post({ url: claim.url, body: claim.body, signature, eventId: claim.eventId });
      });
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw error;
    }
    const finishedAt = new Date();
    span.setAttributes({ 'jobs.delivery.outcome': outcome.kind, ...(outcome.kind !== 'refused' && outcome.statusCode !== null ? { 'http.response.status_code': outcome.statusCode } : {}) });
    if (outcome.kind !== 'succeeded') span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    // The endpoint may take its next attempt now; this one's record goes with the others ending together.
    release();
    const next = await this.finishes.submit({ claim, outcome, startedAt, finishedAt });
    this.metrics.record(next.status, (finishedAt.getTime() - startedAt.getTime()) / 1000);
    this.logger.info(
      {
        event_id: claim.eventId,
        delivery_id: claim.deliveryId,
        delivery_kind: claim.kind,
        host: hostOf(claim.url),
        attempt: claim.attempt,
        outcome: outcome.kind,
        status_code: outcome.kind === 'refused' ? null : outcome.statusCode,
        error: outcome.kind === 'succeeded' ? undefined : outcome.error,
        duration_ms: finishedAt.getTime() - startedAt.getTime(),
        delivery_status: next.status,
        next_attempt_at: next.dueAt?.toISOString() ?? null,
      },
      'webhook attempt',
    );
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid-url';
  }
}
