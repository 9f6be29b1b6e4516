import { Inject, Injectable } from '@nestjs/common';
import type { RefreshRecordsFetched } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';
import { CanonicalJobRepository } from '../canonical-jobs/canonical-job.repository.js';

/**
 * One provider's refresh listing for one scope: its open records are merged like any batch
 * (new jobs open, changed listings update their jobs, re-listings repost); only a complete
 * listing (read to its end) may also mark this provider's absent sources of the scope's jobs
 * no longer listed and close the jobs left with no listed source. A failed or incomplete
 * fetch closes nothing. Every change is staged in dedupe's outbox in the same transaction.
 */
@Injectable()
export class MergeRefreshUseCase {
  constructor(
    private readonly jobs: CanonicalJobRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(message: RefreshRecordsFetched.Value): Promise<void> {
    const open = message.records.filter((r) => r.status !== 'closed');
    const closed = message.records.filter((r) => r.status === 'closed');
    const complete = message.outcome === 'ok' && message.complete;
    await this.jobs.mergeBatch(open, complete ? { provider: message.provider, filters: message.scope.filters, closed, at: new Date(message.fetched_at) } : undefined);
    this.logger.info(
      { refresh_id: message.refresh_id, scope: message.scope.key, provider: message.provider, outcome: message.outcome, complete, records: open.length, closed: closed.length },
      'refresh listing merged',
    );
  }
}
