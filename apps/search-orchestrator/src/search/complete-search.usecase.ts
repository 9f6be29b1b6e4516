import { Injectable } from '@nestjs/common';
import { Topics } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { assembleSearchPage } from '@jobs/waterfall';
import type { JobSearchResponseDraft } from '@jobs/contracts';
import { SearchStateStore, triedProviders, type SearchState } from './search-state.store.js';

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

  /** The page as it stands with the batches gathered so far. */
  async draft(state: SearchState): Promise<JobSearchResponseDraft> {
    const { request } = state.request;
    return assembleSearchPage({
      requestId: state.request.search_id,
      providers: triedProviders(state),
      filters: request.filters,
      strategy: request.waterfall.strategy,
      minSources: request.waterfall.min_sources,
      batches: await this.store.batches(state.request.search_id),
      limit: request.limit,
      startedAt: state.startedAt,
      now: Date.now(),
    });
  }

  async execute(state: SearchState, page?: JobSearchResponseDraft): Promise<void> {
    const searchId = state.request.search_id;
    page ??= await this.draft(state);
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
