import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { WEBHOOK_RESPONSE_DEADLINE_MS } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { isDeterministicFailure } from '@jobs/kafka';
import { requestContext, untraced, type Logger } from '@jobs/observability';
import { DrainRegistry, KickableLoop, LOGGER, ReadinessRegistry } from '@jobs/service-kit';
import { HostResolver, OpenedSecrets, SecretBox, signingSecrets, webhookSecretFor } from '@jobs/webhook-targets';
import { DISPATCHER_CONFIG, type DispatcherConfig } from '../config.js';
import { DeliveryMetrics } from './delivery-metrics.js';
import {
  DeliveryStore,
  LEASE_MS,
  type AttemptOutcome,
  type ClaimedAttempt,
  type FinishedAttempt,
  type NextState,
} from './delivery-store.js';
import { EndpointSlots } from './endpoint-slots.js';
import { GroupCommit } from './group-commit.js';
import { signatureHeader } from './signature.js';
import { WaitingClaims } from './waiting-claims.js';
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
const CLAIM_BATCH = 128;
/**
 * Claims held per slot (under way or waiting for a slot of their endpoint): the next claim's
 * round trip to PostgreSQL overlaps the attempts under way, so an attempt that ends starts the
 * next one at once instead of waiting for a claim.
 */
const PREFETCH = 2;
/** A claim that waited this long for its endpoint's slot is handed back: its attempt must end well within its lease. */
const MAX_WAITING_MS = LEASE_MS - WEBHOOK_RESPONSE_DEADLINE_MS - 5_000;
/** Attempts whose ends one statement records at most. */
const FINISH_BATCH = 500;

/**
 * Sends due deliveries. Each pass claims what is due (accounts, then endpoints, round robin, none
 * beyond twice its slots) and starts attempts without waiting for them, as slots allow: at most
 * WEBHOOK_ENDPOINT_CONCURRENCY to one endpoint, fewer until it has earned them and one after it
 * hung, and at most WEBHOOK_ACCOUNT_CONCURRENCY to one account's endpoints (EndpointSlots), so a
 * 10 s hang on one endpoint holds that endpoint's slots only, and neither a few dead endpoints nor
 * one account's many slow ones ever hold them all; claims waiting for a slot start, endpoints in
 * turn, as attempts end. An
 * attempt's slot is free as soon as its POST ends; the ends of attempts that finish together are
 * recorded in one statement. Every replica runs one; PostgreSQL (SKIP LOCKED claims, leases)
 * shares the work among them.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap {
  private readonly slots: EndpointSlots;
  private readonly sender: WebhookSender;
  private readonly finishes: GroupCommit<FinishedAttempt, NextState>;
  /** The endpoints' secrets as opened for signing, kept a minute (a rotation seals a new value, so it misses). */
  private readonly secrets: OpenedSecrets;
  private readonly running = new Set<Promise<void>>();
  /** Claimed, waiting for a slot of their endpoint. */
  private readonly waiting = new WaitingClaims<ClaimedAttempt>();
  /** Claims that waited too long, to hand back at the next pass. */
  private stale: ClaimedAttempt[] = [];
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
    private readonly box: SecretBox,
    resolver: HostResolver,
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    drains: DrainRegistry,
    readiness: ReadinessRegistry,
  ) {
    this.slots = new EndpointSlots(
      config.WEBHOOK_CONCURRENCY,
      config.WEBHOOK_ENDPOINT_CONCURRENCY,
      config.WEBHOOK_ACCOUNT_CONCURRENCY,
    );
    this.sender = new WebhookSender({
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
      connectionsPerOrigin: config.WEBHOOK_CONCURRENCY,
      resolver,
    });
    // The bookkeeping write belongs to no one delivery's trace.
    this.finishes = new GroupCommit(
      (finished) => untraced(() => this.store.finishMany(finished, config.WEBHOOK_RETRY_SCALE)),
      FINISH_BATCH,
      isDeterministicFailure,
    );
    this.secrets = new OpenedSecrets(box);
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

  /**
   * Stops claiming, hands back the claims not started, waits for the attempts under way (each ends within its deadline)
   * and their records.
   */
  async stop(): Promise<void> {
    await this.loop.stop();
    const unstarted = [...this.stale, ...this.waiting.drain()];
    this.stale = [];
    await this.store
      .giveBack(unstarted, new Date())
      .catch((error: unknown) =>
        this.logger.warn({ err: error }, 'could not hand back unstarted deliveries; their leases end in 30 s'),
      );
    await Promise.allSettled([...this.running]);
    await this.finishes.flushed();
    await this.sender.close();
  }

  /** Claims while there is room (slots and waiting places) and due deliveries; returns when to look again. */
  private async claimAndStart(): Promise<number> {
    if (this.stale.length > 0) {
      const stale = this.stale;
      this.stale = [];
      await untraced(() => this.store.giveBack(stale, new Date()));
    }
    while (!this.loop.isStopped) {
      const room = this.slots.total * PREFETCH - this.slots.size - this.waiting.size;
      if (room <= 0) break;
      const asked = Math.min(CLAIM_BATCH, room);
      // The probe is untraced (an idle worker would otherwise make a trace per look); each attempt continues its
      // event's trace.
      const { byEndpoint: held, byAccount } = this.held();
      // as many claims per slot as the endpoint has earned: those busy here, and those slowed (a hung
      // endpoint not busy here at the moment is not claimed as a new one); any other as a new one
      const caps = new Map<string, number>();
      for (const [url, limit] of this.slots.slowed()) caps.set(url, limit * PREFETCH);
      for (const url of held.keys()) caps.set(url, this.slots.limitOf(url) * PREFETCH);
      // An account may hold every claim but the room the other accounts need to fill their share of
      // slots: more than twice its own slots, so a busy account's next wave is claimed while the one
      // before is sent (its claims past its slots may wait; docs/limitations.md).
      const accounts = {
        held: byAccount,
        cap: this.slots.total * PREFETCH - (this.slots.total - this.slots.perAccount),
      };
      // the lease starts at this moment (the claim's `now`), not when the claim's answer arrives
      const leaseStart = new Date();
      const claims = await untraced(() =>
        this.store.claimDue(leaseStart, asked, held, this.slots.firstLimit * PREFETCH, caps, accounts),
      );
      this.waiting.add(claims, leaseStart.getTime());
      this.startWaiting();
      if (claims.length < asked) break;
    }
    // Attempts under way kick a pass as each ends; meanwhile a retry falling due waits a second at most.
    if (this.slots.size > 0 || this.waiting.size > 0) return SATURATED_POLL_MS;
    const nextDue = await untraced(() => this.store.nextDueAt());
    if (!nextDue) return IDLE_POLL_MS;
    const wait = nextDue.getTime() - Date.now();
    // Due now yet not claimed (it just became due, or another replica holds it): look again soon.
    return wait > 0 ? Math.min(IDLE_POLL_MS, wait) : 50;
  }

  /** Claims held per endpoint and per account: attempts under way and claims waiting for a slot. */
  private held(): { byEndpoint: Map<string, number>; byAccount: Map<string, number> } {
    const byEndpoint = new Map(this.slots.byEndpoint());
    const byAccount = new Map(this.slots.byAccount());
    this.waiting.addHeld(byEndpoint, byAccount);
    return { byEndpoint, byAccount };
  }

  /** Starts waiting claims while slots allow (WaitingClaims: endpoints in turn, accounts within each). */
  private startWaiting(): void {
    for (const next of this.waiting.take(this.slots)) {
      if (Date.now() - next.claimedAt > MAX_WAITING_MS) {
        // Too close to its lease's end to be sure to finish within it: claimed again later instead.
        this.slots.release(next.claim.url, next.claim.accountId);
        this.stale.push(next.claim);
        this.loop.kick();
        continue;
      }
      this.start(next.claim);
    }
  }

  /** Runs an attempt in the slot already taken for it. */
  private start(claim: ClaimedAttempt): void {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.slots.release(claim.url, claim.accountId);
      this.startWaiting();
      this.kick();
    };
    // The attempt continues the trace (and carries the request id) of the work that made the delivery.
    const parent = claim.traceParent
      ? propagation.extract(ROOT_CONTEXT, { traceparent: claim.traceParent })
      : ROOT_CONTEXT;
    const work = context
      .with(parent, () =>
        requestContext.run({ requestId: claim.requestId ?? claim.deliveryId, stages: [] }, () =>
          this.attempt(claim, release),
        ),
      )
      .catch((error: unknown) =>
        this.logger.error(
          { err: error, delivery_id: claim.deliveryId, event_id: claim.eventId },
          'webhook attempt could not be recorded; its lease will expire and it runs again',
        ),
      )
      .finally(() => {
        release();
        this.running.delete(work);
      });
    this.running.add(work);
  }

  private pace(url: string, outcome: AttemptOutcome, durationMs: number): void {
    const pace = paceAfter(outcome, durationMs);
    if (pace === 'succeeded') this.slots.succeeded(url);
    else if (pace === 'hung') this.slots.hung(url);
  }

  /** The signature header: the current secret of the event's mode, and the replaced one while an overlap lasts. */
  private async sign(claim: ClaimedAttempt, at: Date): Promise<string> {
    const owner = { accountId: claim.accountId, mode: claim.mode, url: claim.url };
    const secrets = claim.secret
      ? signingSecrets(claim.secret, this.secrets, owner, at)
      : [await webhookSecretFor(this.prisma, this.box, owner)];
    return signatureHeader(secrets, Math.floor(at.getTime() / 1000), claim.body);
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
    this.metrics.started(claim, startedAt);
    let outcome: AttemptOutcome;
    try {
      outcome = await context.with(trace.setSpan(context.active(), span), async () => {
        const signature = await this.sign(claim, startedAt).catch((error: unknown) => {
          // recorded as a failed attempt, so it is retried on schedule and given up on like any
          // other, never claimed again and again as an attempt that could not be recorded
          this.logger.error({ err: error, delivery_id: claim.deliveryId }, 'webhook delivery could not be signed');
          return null;
        });
        if (signature === null)
          return { kind: 'failed', statusCode: null, error: 'not sent: the delivery could not be signed' } as const;
        return this.sender.post({ url: claim.url, body: claim.body, signature, eventId: claim.eventId });
      });
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw error;
    }
    const finishedAt = new Date();
    span.setAttributes({
      'jobs.delivery.outcome': outcome.kind,
      ...(outcome.kind !== 'refused' && outcome.statusCode !== null
        ? { 'http.response.status_code': outcome.statusCode }
        : {}),
    });
    if (outcome.kind !== 'succeeded') span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    this.pace(claim.url, outcome, finishedAt.getTime() - startedAt.getTime());
    // The endpoint may take its next attempt now; this one's record goes with the others ending together.
    release();
    const next = await this.finishes.submit({ claim, outcome, startedAt, finishedAt });
    // the kick at release may have looked before this retry's time was written (it read the lease's)
    if (next.dueAt) this.kick();
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

/**
 * How an attempt's end sets its endpoint's pace (EndpointSlots): a success earns it more slots; an
 * attempt that hung (no answer, or a failure that took half the deadline or more) or could not
 * connect leaves it one, so a dead endpoint's backlog waits on itself. A quick error answer
 * changes nothing: it holds a slot for milliseconds.
 */
function paceAfter(outcome: AttemptOutcome, durationMs: number): 'succeeded' | 'hung' | 'unchanged' {
  if (outcome.kind === 'succeeded') return 'succeeded';
  if (outcome.kind === 'failed' && (outcome.statusCode === null || durationMs >= WEBHOOK_RESPONSE_DEADLINE_MS / 2))
    return 'hung';
  return 'unchanged';
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid-url';
  }
}
