import { Injectable } from '@nestjs/common';
import { Topics, type Job, type SearchContinuation } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { fieldCoverage } from '@jobs/search-metadata';
import { assembleSearchResult, estimateFromResult, firstPageMayContinue, type SearchResult } from '@jobs/waterfall';
import { requestFingerprint, ResultSetStore } from './result-sets.store.js';
import { SearchMetrics } from './search-metrics.js';
import { SearchStateStore, triedProviders, type SearchState } from './search-state.store.js';

/** State outlives the search's deadline generously, so late batches still find it. */
export const STATE_TTL_SECONDS = 15 * 60;

/**
 * Builds the first page of a search from the batches gathered so far (a provider without a
 * batch is reported as timed out), keeps the whole result set when another page can follow,
 * and sends the page to billing. Callers must have claimed the completion.
 *
 * Billing, not this service, mints `next_cursor`: `waterfall.max_credits` may stop the results
 * before the page ends, and only billing knows where (which jobs the account already paid for).
 * The page therefore travels with its continuation (result set, fingerprint, page start, set
 * size) and billing points the cursor right after the last job it returns, so a capped page is
 * continued from the cut: no job skipped, none repeated.
 */
@Injectable()
export class CompleteSearchUseCase {
  private readonly metrics = new SearchMetrics();

  constructor(
    private readonly store: SearchStateStore,
    private readonly resultSets: ResultSetStore,
    private readonly publisher: KafkaPublisher,
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
    if (request.dry_run) {
      await this.answerEstimate(state, result);
      this.metrics.searchAnswered(request.waterfall.strategy, 'estimate');
      return;
    }
    const fingerprint = requestFingerprint(accountId, request);
    let continuation: SearchContinuation | null = null;
    if (firstPageMayContinue(result.matching.length, request.limit, request.waterfall.max_credits ?? null)) {
      await this.resultSets.save(searchId, { ...result, fingerprint });
      continuation = { set: searchId, fingerprint, page_start: 0, set_size: result.matching.length };
    }
    await this.publishPage(state.request, result.matching.slice(0, request.limit), result.metadata, continuation);
    this.metrics.searchAnswered(request.waterfall.strategy, result.metadata.status);
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

  /** Hands one page to billing, which charges it, mints its next cursor and answers the gateway. */
  async publishPage(search: SearchState['request'], data: Job[], metadata: SearchResult['metadata'], continuation: SearchContinuation | null): Promise<void> {
    await this.publisher.publish(Topics.BillingChargeRequested, {
      v: 1,
      search_id: search.search_id,
      request_id: search.search_id,
      account_id: search.account_id,
      mode: search.mode,
      operation: 'POST /v1/jobs/search',
      max_credits: search.request.waterfall.max_credits ?? null,
      response: { data, metadata: { ...metadata, request_id: search.search_id, field_coverage: fieldCoverage(data) } },
      continuation,
    });
  }
}
