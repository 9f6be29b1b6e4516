import { Injectable } from '@nestjs/common';
import { assembleSearchResult, type ProviderBatch, type SearchResult } from '@jobs/waterfall';
import { SearchStateStore, triedProviders, type SearchState } from './search-state.store.js';

/** A search's gathered batches as one result: every matching job so far, in page order. */
@Injectable()
export class GatheredResult {
  constructor(private readonly store: SearchStateStore) {}

  /** The gathered batches (read once per search when the caller has none: they are large). */
  async batches(state: SearchState, gathered?: ProviderBatch[]): Promise<ProviderBatch[]> {
    return gathered ?? (await this.store.batches(state.request.search_id));
  }

  /** Every matching job in `batches`, in page order (a provider without a batch counts as timed out). */
  of(state: SearchState, batches: ProviderBatch[]): SearchResult {
    const { request } = state.request;
    return assembleSearchResult({
      requestId: state.request.search_id,
      providers: triedProviders(state),
      filters: request.filters,
      strategy: request.waterfall.strategy,
      minSources: request.waterfall.min_sources,
      batches,
      limit: request.limit,
      startedAt: state.startedAt,
      now: Date.now(),
    });
  }
}
