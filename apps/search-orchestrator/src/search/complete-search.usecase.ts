import { Injectable } from '@nestjs/common';
import { Topics } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { assembleSearchPage } from '@jobs/waterfall';
import { SearchStateStore, type SearchState } from './search-state.store.js';

/** State outlives the search's deadline generously, so late batches still find it. */
export const STATE_TTL_SECONDS = 15 * 60;

/**
 * Assembles the page of a search from the batches gathered so far (a provider without a batch
 * is reported as timed out) and sends it to billing. Callers must have claimed the completion.
 */
@Injectable()
export class CompleteSearchUseCase {
  constructor(
    private readonly store: SearchStateStore,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(state: SearchState): Promise<void> {
    const searchId = state.request.search_id;
    const page = assembleSearchPage({
      requestId: searchId,
      providers: state.plan.providers,
      batches: await this.store.batches(searchId),
      limit: state.request.request.limit,
      startedAt: state.startedAt,
      now: Date.now(),
    });
    await this.publisher.publish(Topics.BillingChargeRequested, {
      v: 1,
      search_id: searchId,
      request_id: searchId,
      account_id: state.request.account_id,
      mode: state.request.mode,
      operation: 'POST /v1/jobs/search',
      max_credits: state.request.request.waterfall.max_credits ?? null,
      response: page,
    });
  }
}
