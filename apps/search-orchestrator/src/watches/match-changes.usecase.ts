import { Inject, Injectable } from '@nestjs/common';
import { Topics, type CompanyHiringChanged, type Event, type JobLifecycleChanged } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { annotateStage, type Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';
import {
  eventsForHiringChange,
  jobBefore,
  matchJobChange,
  type JobWatchEventFor,
  type WatchEvent,
} from './watch-events.js';
import { WatchIndex } from './watch-index.js';

/**
 * The watch matcher: a job or company change becomes one event per concerned watch, found
 * through the in-memory watch index (no query per change). The events billing decides on go to
 * billing (`event.charge.requested`), which owns what each account paid for and holds: a
 * `job.opened` costs a credit, a `job.updated` goes only to an account that has paid for the job
 * (the full Job must never reach an account for free), and a `job.closed` first drops a
 * `job.opened` of the job held for credits. Every other event is free and goes out at once
 * (`event.emitted`).
 *
 * Published directly, not through an outbox: nothing is written here, and a redelivered change
 * makes the same events with the same ids, which the feed stores once and billing charges once.
 */
@Injectable()
export class MatchChangesUseCase {
  constructor(
    private readonly watches: WatchIndex,
    private readonly publisher: KafkaPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onJobChange(change: JobLifecycleChanged.Value): Promise<void> {
    const views = [change.job, jobBefore(change)];
    const { events: made, openingsEnded } = matchJobChange((await this.watches.current()).forJobs(views), change);
    annotateStage({ 'job.id': change.job.id, 'job.change': change.change, 'events.made': made.length });
    await this.emit(made);
    await this.publisher.publishMany(
      Topics.EventChargeRequested,
      openingsEnded.map((watch) => ({
        value: {
          v: 1 as const,
          account_id: watch.accountId,
          held_opening_ended: {
            watch_id: watch.id,
            job_id: change.job.id,
            changed_at: change.occurred_at,
            because: change.change === 'closed' ? ('closed' as const) : ('left_scope' as const),
          },
        },
      })),
    );
    if (made.length > 0)
      this.logger.info(
        { change_id: change.change_id, job_id: change.job.id, change: change.change, events: made.length },
        'job change matched watches',
      );
  }

  async onHiringChange(change: CompanyHiringChanged.Value): Promise<void> {
    const made = eventsForHiringChange((await this.watches.current()).forCompany(change.company.domain), change);
    await this.emit(made);
    if (made.length > 0)
      this.logger.info(
        { change_id: change.change_id, domain: change.company.domain, events: made.length },
        'hiring change matched watches',
      );
  }

  private async emit(
    made: readonly (WatchEvent & Partial<Pick<JobWatchEventFor, 'leftScope' | 'heldOnly'>>)[],
  ): Promise<void> {
    const charged = [];
    const free = [];
    for (const { watch, event, leftScope, heldOnly } of made) {
      // Only live watches are matched (`isLive`), so every event made here is live.
      if (event.type === 'job.opened' || event.type === 'job.updated' || event.type === 'job.closed')
        charged.push({
          value: {
            v: 1 as const,
            account_id: watch.accountId,
            event,
            webhook_url: watch.webhookUrl,
            ...(leftScope ? { left_scope: true as const } : {}),
            ...(heldOnly ? { held_only: true as const } : {}),
          },
        });
      else
        free.push({
          value: {
            v: 1 as const,
            account_id: watch.accountId,
            event: event satisfies Event,
            webhook_url: watch.webhookUrl,
            mode: 'live' as const,
          },
        });
    }
    await this.publisher.publishMany(Topics.EventChargeRequested, charged);
    await this.publisher.publishMany(Topics.EventEmitted, free);
  }
}
