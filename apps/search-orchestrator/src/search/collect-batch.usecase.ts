import { Inject, Injectable } from '@nestjs/common';
import { Topics, SearchRecordsDeduplicated } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { assembleSearchPage } from '@jobs/waterfall';
import { LOGGER } from '@jobs/service-kit';
import { SearchStateStore } from './search-state.store.js';

const STATE_TTL_SECONDS = 15 * 60;

/**
 * Gathers the de-duplicated batches of a search; the batch that completes it assembles the
 * page and sends it to billing.
 */
@Injectable()
export class CollectBatchUseCase {
  constructor(
    private readonly store: SearchStateStore,
    private readonly publisher: KafkaPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(message: SearchRecordsDeduplicated.Value): Promise<void> {
    const state = await this.store.load(message.search_id);
    if (!state) {
      this.logger.warn({ search_id: message.search_id, provider: message.provider }, 'batch for an unknown or expired search dropped');
      return;
    }
    const { complete } = await this.store.recordBatch(
      message.search_id,
      { provider: message.provider, outcome: message.outcome, recordsIn: message.records_in, jobs: message.jobs },
      STATE_TTL_SECONDS,
    );
    if (!complete) return;
    const page = assembleSearchPage({
      requestId: state.request.search_id,
      providers: state.plan.providers,
      batches: await this.store.batches(message.search_id),
      limit: state.request.request.limit,
      startedAt: state.startedAt,
      now: Date.now(),
    });
    await this.publisher.publish(Topics.BillingChargeRequested, {
      v: 1,
      search_id: state.request.search_id,
      request_id: state.request.search_id,
      account_id: state.request.account_id,
      mode: state.request.mode,
      operation: 'POST /v1/jobs/search',
      max_credits: state.request.request.waterfall.max_credits ?? null,
      response: page,
    });
  }
}
