import { Inject, Injectable } from '@nestjs/common';
import { Topics, type EventOf } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { annotateStage, type Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';
import { dropHeldOpenings } from './held-openings.js';

type JobUpdatedEvent = EventOf<'job.updated'>;

export interface JobUpdate {
  accountId: string;
  event: JobUpdatedEvent;
  webhookUrl: string;
  /** The update took the job out of the watch's scope. */
  leftScope: boolean;
  /** The watch does not hear of updates: the update only refreshes its held `job.opened` of the job. */
  heldOnly: boolean;
}

/** What becomes of a `job.updated`: whether it is sent, and what of the watch's held `job.opened` of the job. */
export interface JobUpdateDecision {
  send: boolean;
  held: 'refresh' | 'drop' | 'none';
}

/** What the decision needs to know about the account and the job (read in one statement). */
export interface JobUpdateFacts {
  /** The account has paid for the job (any endpoint, any time). */
  paid: boolean;
  /** The account holds this watch's `job.opened` of the job, waiting for credits. */
  heldOpened: boolean;
  /** The update took the job out of the watch's scope. */
  leftScope: boolean;
  /** The watch does not subscribe to `job.updated` (`held_only`). */
  heldOnly: boolean;
}

/**
 * Who gets a `job.updated` (pure): it carries the full Job, which an account gets only by paying
 * for it, so it goes only to an account that has paid for the job. A `job.opened` of the job the
 * watch holds for credits (queued behind others, paid for or not) takes the updated job, so the
 * one a top-up releases carries the newest copy, unless the update took the job out of the
 * watch's scope: then the held event is dropped, never sent or charged for a job that no longer
 * matches. A watch that does not subscribe to `job.updated` is sent none, but its held
 * `job.opened` takes the new copy all the same.
 */
export function decideJobUpdate(facts: JobUpdateFacts): JobUpdateDecision {
  return {
    send: facts.paid && !facts.heldOnly,
    held: !facts.heldOpened ? 'none' : facts.leftScope ? 'drop' : 'refresh',
  };
}

/**
 * `job.updated` watch events, decided by billing because billing owns the paid-jobs set. Free:
 * no ledger line. Emitted directly (nothing is written for it: a redelivery makes the same event
 * id, which the feed stores once); a held `job.opened` is refreshed or dropped with one statement.
 */
@Injectable()
export class PaidJobUpdatesUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly publisher: KafkaPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async forward(update: JobUpdate): Promise<JobUpdateDecision> {
    const { accountId, event } = update;
    const jobId = event.data.job.id;
    annotateStage({ 'account.id': accountId, 'event.id': event.id, 'event.type': event.type, 'job.id': jobId });
    const [facts] = await this.prisma.$queryRaw<Array<{ paid: boolean; held_opened: boolean }>>`
      SELECT EXISTS (SELECT 1 FROM paid_jobs WHERE account_id = ${accountId} AND job_id = ${jobId}) AS paid,
             EXISTS (SELECT 1 FROM held_watch_events WHERE account_id = ${accountId} AND watch_id = ${event.watch_id}
               AND job_id = ${jobId}) AS held_opened`;
    const decision = decideJobUpdate({
      paid: facts?.paid ?? false,
      heldOpened: facts?.held_opened ?? false,
      leftScope: update.leftScope,
      heldOnly: update.heldOnly,
    });
    const log = { account_id: accountId, event_id: event.id, job_id: jobId };
    if (decision.held === 'refresh') {
      // Only ever forward: an update older than the held copy (a redelivery) leaves it as it is.
      await this.prisma.$executeRaw`
        UPDATE held_watch_events SET event = jsonb_set(event, '{data,job}', ${JSON.stringify(event.data.job)}::jsonb)
         WHERE account_id = ${accountId} AND watch_id = ${event.watch_id} AND job_id = ${jobId}
           AND coalesce((event #>> '{data,job,last_seen_at}')::timestamptz <=
             ${event.data.job.last_seen_at}::timestamptz, true)`;
      this.logger.info(log, 'job.updated folded into a held job.opened');
    } else if (decision.held === 'drop') {
      await dropHeldOpenings(this.prisma, { accountId, watchId: event.watch_id, jobId, madeBy: event.created_at });
      this.logger.info(log, 'held job.opened dropped: an update took its job out of the watch');
    }
    if (decision.send)
      await this.publisher.publishMany(Topics.EventEmitted, [
        { value: { v: 1, account_id: accountId, event, webhook_url: update.webhookUrl, mode: 'live' } },
      ]);
    else this.logger.debug(log, 'job.updated not sent: the account has not paid for the job');
    return decision;
  }
}
