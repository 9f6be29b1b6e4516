import { Inject, Injectable } from '@nestjs/common';
import { Topics, type Job } from '@jobs/contracts';
import type { CursorCodec } from '@jobs/cursors';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { assembleSearchResult, estimateFromResult, fieldCoverage, type SearchResult } from '@jobs/waterfall';
import { requestFingerprint, ResultSetStore } from './result-sets.store.js';
import { SEARCH_CURSOR_CODEC, searchCursorScope, type SearchCursor } from './search-cursor.js';
import { SearchStateStore, triedProviders, type SearchState } from './search-state.store.js';

/** State outlives the search's deadline generously, so late batches still find it. */
export const STATE_TTL_SECONDS = 15 * 60;

/**
 * Builds the first page of a search from the batches gathered so far (a provider without a
 * batch is reported as timed out), keeps the rest for the next pages, and sends the page to
 * billing. Callers must have claimed the completion.
 */
@Injectable()
export class CompleteSearchUseCase {
  constructor(
    private readonly store: SearchStateStore,
    private readonly resultSets: ResultSetStore,
    private readonly publisher: KafkaPublisher,
    @Inject(SEARCH_CURSOR_CODEC) private readonly cursors: CursorCodec,
  ) {}

  /** Every matching job gathered so far, in page order. */
  async result(state: SearchState): Promise<SearchResult> {
    const { request } = state.request;
    return assembleSearchResult({
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

  async execute(state: SearchState, result?: SearchResult): Promise<void> {
    const { search_id: searchId, account_id: accountId, request } = state.request;
    result ??= await this.result(state);
    if (request.dry_run) return this.answerEstimate(state, result);
    const fingerprint = requestFingerprint(accountId, request);
    const hasMore = result.matching.length > request.limit;
    if (hasMore) await this.resultSets.save(searchId, { ...result, fingerprint });
    const cursor: SearchCursor = { set: searchId, offset: request.limit, fingerprint };
    await this.publishPage(state.request, result.matching.slice(0, request.limit), result.metadata, hasMore ? this.cursors.encode(searchCursorScope(accountId), cursor) : null);
  }

  /** dry_run: the estimate goes straight back to the gateway; billing never sees it. */
  private async answerEstimate(state: SearchState, result: SearchResult): Promise<void> {
    const { search_id: searchId, request } = state.request;
    const estimate = estimateFromResult(result, await this.store.batches(searchId), request.limit, request.limit, request.waterfall.max_credits ?? null, state.plan.providers);
    await this.publisher.publish(Topics.SearchResponded, {
      v: 1,
      search_id: searchId,
      request_id: searchId,
      outcome: 'ok',
      estimate: { request_id: searchId, estimate },
      credits_charged: 0,
      credits_remaining: null,
    });
  }

  /** Hands one page to billing, which charges it and answers the gateway. */
  async publishPage(search: SearchState['request'], data: Job[], metadata: SearchResult['metadata'], nextCursor: string | null): Promise<void> {
    await this.publisher.publish(Topics.BillingChargeRequested, {
      v: 1,
      search_id: search.search_id,
      request_id: search.search_id,
      account_id: search.account_id,
      mode: search.mode,
      operation: 'POST /v1/jobs/search',
      max_credits: search.request.waterfall.max_credits ?? null,
      response: { data, next_cursor: nextCursor, metadata: { ...metadata, request_id: search.search_id, field_coverage: fieldCoverage(data) } },
    });
  }
}
