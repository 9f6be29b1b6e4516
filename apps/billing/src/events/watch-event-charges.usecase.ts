import { Inject, Injectable } from '@nestjs/common';
import { JobOpenedEventSchema, Topics, type EventChargeRequested } from '@jobs/contracts';
import { isUniqueViolation, PrismaService, type Prisma } from '@jobs/db';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { annotateStage, type Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';
import { AccountCharges, type StageAnswer } from '../charges/account-charges.js';
import { dropHeldOpenings, type HeldOpenings } from './held-openings.js';
import { BILLING_MARKS, isMarked } from '../charges/billing-marks.js';

type JobOpenedEvent = Extract<EventChargeRequested.EventCharge['event'], { type: 'job.opened' }>;
type JobClosedEvent = Extract<EventChargeRequested.EventCharge['event'], { type: 'job.closed' }>;

/** An `event.charge.requested` of a `job.opened` (the consumer sends `job.updated` elsewhere). */
export type JobOpenedChargeRequest = EventChargeRequested.EventCharge & { event: JobOpenedEvent };

/** An `event.charge.requested` of a `job.closed`. */
export type JobClosedRequest = EventChargeRequested.EventCharge & { event: JobClosedEvent };

type WatchStopped = EventChargeRequested.WatchStopped;
type HeldOpeningEnded = EventChargeRequested.HeldOpeningEnded;

interface HeldEvent {
  accountId: string;
  event: JobOpenedEvent;
  webhookUrl: string;
}

/** The charge mark of a watch event: written once, when the event is first charged or held. */
const handledKey = (eventId: string) => `watch-event:${eventId}`;
/** The charge mark of a held event's release: written once, when the top-up finally charges it. */
const releasedKey = (eventId: string) => `watch-event-release:${eventId}`;

/**
 * Ledger operation of a job delivered by a watch (OperationSchema: "<METHOD> <path>"): the route
 * that made the watch, a real one a customer can look up; the line's request id is the event's
 * id, whose `watch_id` names the watch (`GET /v1/events`).
 */
export const WATCH_EVENT_OPERATION = 'POST /v1/watches';

/** Thrown inside a release transaction to undo it: the account still cannot pay. */
class StillShort extends Error {}

/** Thrown inside a release transaction to undo it: the held event went meanwhile (its watch stopped). */
class NoLongerHeld extends Error {}

/**
 * At most this many held events are looked at in one release pass. A pass runs inside one
 * message's handling, on a partition other accounts' watch events share, so a backlog is released
 * over several messages (`releaseAll` asks for the next), each a few seconds at most, with those
 * accounts' events handled between them.
 */
export const RELEASE_BATCH = 500;

/**
 * How long a watch's stop is kept: far beyond the moments between a matcher's read of the
 * watches and its publish, which is all the stop has to outlast.
 */
const STOP_KEPT_DAYS = 7;

/**
 * `job.opened` watch events: 1 credit unless the account paid for the job before (ledger line
 * `POST /v1/watches`, request id = the event id), charged with the one AccountCharges
 * transaction, which stages the `event.emitted` too. An account without credits gets the event
 * held (in that transaction) until a top-up; held events are released oldest first, and while
 * an account has held events newer ones queue behind them, so its events go out in order. A held
 * event is dropped, never charged or sent, when its watch stops or its job closes first; so is
 * one made before its watch's stop that arrives after it.
 */
@Injectable()
export class WatchEventChargesUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly charges: AccountCharges,
    private readonly publisher: KafkaPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async charge(message: JobOpenedChargeRequest): Promise<void> {
    const held: HeldEvent = { accountId: message.account_id, event: message.event, webhookUrl: message.webhook_url };
    annotateStage({
      'account.id': message.account_id,
      'event.id': message.event.id,
      'event.type': message.event.type,
      'job.id': message.event.data.job.id,
    });
    if (await this.marked(handledKey(message.event.id))) return; // a redelivery
    if (await this.madeBeforeStop(message.account_id, message.event)) {
      this.logger.info(
        { account_id: held.accountId, event_id: held.event.id, watch_id: held.event.watch_id },
        'job.opened dropped: made before its watch stopped',
      );
      return;
    }
    const holdsAny = await this.prisma.heldWatchEvent.findFirst({
      where: { accountId: message.account_id },
      select: { seq: true },
    });
    if (holdsAny) {
      await this.holdBehind(held);
      await this.releaseAll(message.account_id);
      return;
    }
    await this.charges.charge(this.request(held, handledKey(message.event.id)), async (tx, plan, _credits, stage) => {
      if (plan.kind === 'insufficient_credits') {
        await this.hold(tx, held);
        this.logger.info({ account_id: held.accountId, event_id: held.event.id }, 'job.opened held: no credits left');
        return;
      }
      await this.emit(stage, held);
    });
  }

  /**
   * The account's credits rose (`release_held`): its held events are released while credits
   * last; a pass that stopped at its bound with events still held asks for the next one (a
   * message of its own, behind what the account's partition holds by now; a crash before it is
   * sent redelivers this one, which releases again).
   */
  async releaseAll(accountId: string, batch = RELEASE_BATCH): Promise<number> {
    const { released, bounded } = await this.releasePass(accountId, batch);
    if (bounded)
      await this.publisher.publish(Topics.EventChargeRequested, {
        v: 1,
        account_id: accountId,
        release_held: { because: 'more_held' },
      });
    return released;
  }

  /** One bounded pass; `bounded`: it stopped at its bound, not for want of credits or held events. */
  private async releasePass(accountId: string, batch: number): Promise<{ released: number; bounded: boolean }> {
    let released = 0;
    for (let i = 0; i < batch; i++) {
      const row = await this.prisma.heldWatchEvent.findFirst({ where: { accountId }, orderBy: { seq: 'asc' } });
      if (!row) return { released, bounded: false };
      const held: HeldEvent = { accountId, event: JobOpenedEventSchema.parse(row.event), webhookUrl: row.webhookUrl };
      if (await this.marked(releasedKey(held.event.id))) {
        // released by a concurrent pass that committed: its row is gone or going
        await this.prisma.heldWatchEvent.deleteMany({ where: { eventId: held.event.id } });
        continue;
      }
      try {
        await this.charges.charge(this.request(held, releasedKey(held.event.id)), async (tx, plan, _credits, stage) => {
          if (plan.kind === 'insufficient_credits') throw new StillShort();
          // the row, locked by this delete, is the event's right to go out: a stop of its watch
          // that committed first took it away
          const { count } = await tx.heldWatchEvent.deleteMany({ where: { eventId: held.event.id } });
          if (count === 0) throw new NoLongerHeld();
          await this.emit(stage, held);
        });
      } catch (error) {
        if (error instanceof StillShort) return this.released(accountId, released, false);
        if (error instanceof NoLongerHeld) continue;
        throw error;
      }
      released += 1;
    }
    return this.released(accountId, released, true);
  }

  private released(accountId: string, released: number, bounded: boolean): { released: number; bounded: boolean } {
    if (released > 0) this.logger.info({ account_id: accountId, released }, 'held job.opened events released');
    return { released, bounded };
  }

  /**
   * A paused or deleted watch: its `job.opened` events still held for credits are dropped, so a
   * top-up never charges or sends them (a resumed watch replays nothing of its pause), and the
   * stop is kept, so those a matcher made before it and published after it are dropped too.
   */
  async dropStopped(message: WatchStopped): Promise<void> {
    const { account_id: accountId, watch_stopped: stop } = message;
    if (stop.stopped_at) await this.keepStop(accountId, stop.watch_id, new Date(stop.stopped_at));
    await this.dropHeld({ accountId, watchId: stop.watch_id, madeBy: stop.stopped_at }, 'its watch stopped');
  }

  /**
   * A change that ends the watch's held `job.opened` of a job, for a watch that does not hear of
   * it (subscribed to `job.opened`, not to the `job.closed` or `job.updated` it made): the held
   * event is dropped all the same, never charged for a job closed or no longer matching.
   */
  async dropEnded(message: HeldOpeningEnded): Promise<void> {
    const { account_id: accountId, held_opening_ended: ended } = message;
    await this.dropHeld(
      { accountId, watchId: ended.watch_id, jobId: ended.job_id, madeBy: ended.changed_at },
      ended.because === 'closed' ? 'its job closed' : 'an update took its job out of the watch',
    );
  }

  /**
   * A `job.closed`: free, and sent to every watch it concerns, but decided here, on the account's
   * partition behind its earlier events: the watch's `job.opened` of that job still held is
   * dropped first, so a top-up never charges a job that closed nor sends its open copy after the
   * close. Emitted directly (nothing is written for it: a redelivery drops nothing more and makes
   * the same event id, which the feed stores once).
   */
  async forwardClosed(message: JobClosedRequest): Promise<void> {
    const { account_id: accountId, event } = message;
    await this.dropHeld(
      { accountId, watchId: event.watch_id, jobId: event.data.job.id, madeBy: event.created_at },
      'its job closed',
    );
    annotateStage({ 'event.id': event.id, 'job.id': event.data.job.id });
    await this.publisher.publishMany(Topics.EventEmitted, [
      { value: { v: 1, account_id: accountId, event, webhook_url: message.webhook_url, mode: 'live' } },
    ]);
  }

  private async dropHeld(where: HeldOpenings, because: string): Promise<void> {
    const count = await dropHeldOpenings(this.prisma, where);
    annotateStage({ 'account.id': where.accountId, 'watch.id': where.watchId, 'held.dropped': count });
    if (count > 0)
      this.logger.info(
        { account_id: where.accountId, watch_id: where.watchId, job_id: where.jobId, dropped: count },
        `held job.opened events dropped: ${because}`,
      );
  }

  /**
   * The watch's latest stop (a redelivered or overtaken older one never moves it back), and the
   * stops older than STOP_KEPT_DAYS go.
   */
  private async keepStop(accountId: string, watchId: string, stoppedAt: Date): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.$executeRaw`
        INSERT INTO "watch_stops" ("account_id", "watch_id", "stopped_at")
        VALUES (${accountId}, ${watchId}, ${stoppedAt})
        ON CONFLICT ("account_id", "watch_id") DO UPDATE
          SET "stopped_at" = GREATEST("watch_stops"."stopped_at", EXCLUDED."stopped_at")`,
      this.prisma.$executeRaw`
        DELETE FROM "watch_stops"
        WHERE "stopped_at" < ${stoppedAt}::timestamptz - make_interval(days => ${STOP_KEPT_DAYS})`,
    ]);
  }

  /** Whether the event's change occurred before its watch's latest stop (the account's own). */
  private async madeBeforeStop(accountId: string, event: JobOpenedEvent): Promise<boolean> {
    const stop = await this.prisma.watchStop.findUnique({
      where: { accountId_watchId: { accountId, watchId: event.watch_id } },
      select: { stoppedAt: true },
    });
    return stop !== null && stop.stoppedAt.getTime() > Date.parse(event.created_at);
  }

  private request(held: HeldEvent, chargeKey: string) {
    return {
      chargeKey,
      kind: 'event' as const,
      accountId: held.accountId,
      requestId: held.event.id,
      operation: WATCH_EVENT_OPERATION,
      jobIds: [held.event.data.job.id],
      maxCredits: null,
      mode: 'live' as const,
    };
  }

  /** Queues an event behind the account's held ones, with its mark, once. */
  private async holdBehind(held: HeldEvent): Promise<void> {
    try {
      await this.prisma.$transaction(async (tx) => {
        await tx.processedMessage.create({
          data: { consumerGroup: BILLING_MARKS, messageId: handledKey(held.event.id) },
        });
        await this.hold(tx, held);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }

  private async hold(tx: Prisma.TransactionClient, held: HeldEvent): Promise<void> {
    await tx.heldWatchEvent.create({
      data: {
        accountId: held.accountId,
        eventId: held.event.id,
        jobId: held.event.data.job.id,
        watchId: held.event.watch_id,
        event: held.event,
        webhookUrl: held.webhookUrl,
      },
    });
  }

  private emit(stage: StageAnswer, held: HeldEvent): Promise<void> {
    return stage(Topics.EventEmitted, {
      v: 1,
      account_id: held.accountId,
      event: held.event,
      webhook_url: held.webhookUrl,
      mode: 'live',
    });
  }

  private marked(key: string): Promise<boolean> {
    return isMarked(this.prisma, key);
  }
}
