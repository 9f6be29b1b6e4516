import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { untraced, type Logger } from '@jobs/observability';
import { DrainRegistry, KickableLoop, LOGGER, ReadinessRegistry } from '@jobs/service-kit';
import { webhookSecretFor } from '@jobs/webhook-targets';
import { DISPATCHER_CONFIG, type DispatcherConfig } from '../config.js';
import { DeliveryMetrics } from './delivery-metrics.js';
import { DeliveryStore, type AttemptOutcome, type ClaimedAttempt } from './delivery-store.js';
import { EndpointSlots } from './endpoint-slots.js';
import { signatureHeader } from './signature.js';
import { postWebhook } from './webhook-sender.js';

/**
 * The longest the worker sleeps without looking for due deliveries. New deliveries and replays
 * kick it and retries wake it at their due time, so this only bounds how late it notices what
 * nothing told it about (another replica's lost lease, a clock step).
 */
const IDLE_POLL_MS = 5_000;
/** Due deliveries it could not take (their endpoints' slots are busy): an ending attempt kicks it. */
const SATURATED_POLL_MS = 1_000;
const CLAIM_BATCH = 16;

/**
 * Sends due deliveries. Each pass claims what is due (oldest first) within the free slots,
 * skipping endpoints that already use all of theirs, and starts those attempts without waiting
 * for them: a 10 s hang on one endpoint holds that endpoint's slots only. Every replica runs one;
 * PostgreSQL (SKIP LOCKED claims, leases) shares the work among them.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap {
  private readonly slots: EndpointSlots;
  private readonly running = new Set<Promise<void>>();
  private healthy = true;
  private readonly metrics = new DeliveryMetrics();
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

  /** Stops claiming and waits for the attempts under way (each ends within its deadline). */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.running]);
  }

  /** Claims and starts attempts while slots and due deliveries remain; returns when to look again. */
  private async claimAndStart(): Promise<number> {
    while (!this.loop.isStopped && this.slots.free > 0) {
      const skip = this.slots.saturated();
      // The probe is untraced (an idle worker would otherwise make a trace per look); each attempt traces itself.
      const claims = await untraced(() =>
        this.store.claimDue(new Date(), Math.min(CLAIM_BATCH, this.slots.free), skip, (url) => this.config.WEBHOOK_ENDPOINT_CONCURRENCY - this.slots.inFlightTo(url)),
      );
      for (const claim of claims) this.start(claim);
      if (claims.length === 0) break;
    }
    const nextDue = await untraced(() => this.store.nextDueAt());
    if (!nextDue) return IDLE_POLL_MS;
    const wait = nextDue.getTime() - Date.now();
    if (wait > 0) return Math.min(IDLE_POLL_MS, wait);
    // Due now yet not claimed: its endpoint's slots (or all) are busy, or it just became due.
    return this.slots.free > 0 && this.slots.saturated().length === 0 ? 50 : SATURATED_POLL_MS;
  }

  private start(claim: ClaimedAttempt): void {
    if (!this.slots.tryTake(claim.url)) {
      // Cannot happen (claims respect the free slots); the lease makes it due again anyway.
      this.logger.warn({ delivery_id: claim.deliveryId }, 'claimed a delivery without a free slot');
      return;
    }
    const work = this.attempt(claim)
      .catch((error: unknown) => this.logger.error({ err: error, delivery_id: claim.deliveryId, event_id: claim.eventId }, 'webhook attempt could not be recorded; its lease will expire and it runs again'))
      .finally(() => {
        this.slots.release(claim.url);
        this.running.delete(work);
        this.kick();
      });
    this.running.add(work);
  }

  private async attempt(claim: ClaimedAttempt): Promise<void> {
    const startedAt = new Date();
    const secret = await webhookSecretFor(this.prisma, claim.accountId, claim.url);
    const signature = signatureHeader(secret, Math.floor(startedAt.getTime() / 1000), claim.body);
    const outcome: AttemptOutcome = await postWebhook({ url: claim.url, body: claim.body, signature, eventId: claim.eventId }, { allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE });
    const finishedAt = new Date();
    const next = await this.store.finish(claim, outcome, startedAt, finishedAt, this.config.WEBHOOK_RETRY_SCALE);
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
