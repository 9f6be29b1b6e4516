import { Injectable } from '@nestjs/common';
import { Topics } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { estimateFromCounts, planWaterfall, type ProviderBatch } from '@jobs/waterfall';
import { GatheredResult } from './gathered-result.js';
import { SearchMetrics } from './search-metrics.js';
import type { SearchState } from './search-state.store.js';

/**
 * A dry run's estimate, from the counts its legs brought (the store's count, each partner's
 * total): it goes straight back to the gateway, free; billing never sees it. Callers must have
 * claimed the completion.
 */
@Injectable()
export class AnswerEstimateUseCase {
  private readonly metrics = new SearchMetrics();

  constructor(
    private readonly gathered: GatheredResult,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(state: SearchState, gathered?: ProviderBatch[]): Promise<void> {
    const { search_id: searchId, request } = state.request;
    const batches = await this.gathered.batches(state, gathered);
    const estimate = estimateFromCounts({
      providersPlanned: state.plan.providers,
      // a dry run asks every planned provider at once; the search itself goes wave by wave
      waves: planWaterfall(request, state.request.providers_enabled).waves,
      batches,
      filters: request.filters,
      strategy: request.waterfall.strategy,
      minSources: request.waterfall.min_sources,
      limit: request.limit,
      maxCredits: request.waterfall.max_credits ?? null,
    });
    await this.publisher.publish(Topics.SearchResponded, {
      v: 1,
      search_id: searchId,
      request_id: searchId,
      outcome: 'ok',
      estimate: { request_id: searchId, estimate },
      credits_charged: 0,
      credits_remaining: null,
    });
    this.metrics.searchAnswered(request.waterfall.strategy, 'estimate');
  }
}
