import { Inject, Injectable } from '@nestjs/common';
import { Topics, type EventChargeRequested } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { annotateStage, type Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';

type JobClosedEvent = Extract<EventChargeRequested.EventCharge['event'], { type: 'job.closed' }>;

/** An `event.charge.requested` of a `job.closed`. */
export type JobClosedRequest = EventChargeRequested.EventCharge & { event: JobClosedEvent };

/**
 * `job.closed` watch events: free, and sent to every watch they concern, but decided here, on
 * the account's partition behind its earlier events: the watch's `job.opened` of that job still
 * held for credits is dropped first, so a top-up never charges a job that closed nor sends its
 * open copy after the close. Emitted directly (nothing is written for it: a redelivery deletes
 * nothing more and makes the same event id, which the feed stores once).
 */
@Injectable()
export class ClosedJobEventsUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly publisher: KafkaPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async forward(message: JobClosedRequest): Promise<void> {
    const { account_id: accountId, event } = message;
    const jobId = event.data.job.id;
    const { count } = await this.prisma.heldWatchEvent.deleteMany({
      where: { accountId, watchId: event.watch_id!, jobId },
    });
    annotateStage({ 'account.id': accountId, 'event.id': event.id, 'job.id': jobId, 'held.dropped': count });
    if (count > 0)
      this.logger.info(
        { account_id: accountId, watch_id: event.watch_id, job_id: jobId },
        'held job.opened dropped: the job closed before a top-up',
      );
    await this.publisher.publishMany(Topics.EventEmitted, [
      { value: { v: 1, account_id: accountId, event, webhook_url: message.webhook_url, mode: 'live' } },
    ]);
  }
}
