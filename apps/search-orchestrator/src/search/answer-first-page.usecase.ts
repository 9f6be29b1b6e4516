import { Injectable } from '@nestjs/common';
import type { SearchContinuation } from '@jobs/contracts';
import { firstPageMayContinue, hasMore, nextPositions, type ProviderBatch, type SearchResult } from '@jobs/waterfall';
import { GatheredResult } from './gathered-result.js';
import { requestFingerprint, ResultSetStore } from './result-sets.store.js';
import { SearchAnswers } from './search-answers.js';
import { SearchMetrics } from './search-metrics.js';
import { gatheredMessagesKey, triedProviders, type SearchState } from './search-state.store.js';

/**
 * The first page of a search, from the batches gathered so far: keeps the whole result set when
 * another page can follow, and sends the page to the gateway and its job ids to billing. Callers
 * must have claimed the completion.
 */
@Injectable()
export class AnswerFirstPageUseCase {
  private readonly metrics = new SearchMetrics();

  constructor(
    private readonly gathered: GatheredResult,
    private readonly resultSets: ResultSetStore,
    private readonly answers: SearchAnswers,
  ) {}

  async execute(state: SearchState, result?: SearchResult, gathered?: ProviderBatch[]): Promise<void> {
    const { search_id: searchId, account_id: accountId, request } = state.request;
    const fingerprint = requestFingerprint(accountId, request);
    // Answered again after a publish was refused (the sweeper, with nothing in hand): if the set
    // was kept, the gathered messages became its jobs, and the page is the set's first.
    const kept = result === undefined && gathered === undefined ? await this.resultSets.load(searchId) : null;
    if (kept?.fingerprint === fingerprint) {
      const more = hasMore(kept.positions ?? {});
      return this.publish(state, kept, {
        set: searchId,
        fingerprint,
        page_start: 0,
        set_size: kept.matching.length,
        more,
      });
    }
    const batches = await this.gathered.batches(state, gathered);
    result ??= this.gathered.of(state, batches);
    // every provider of the plan: those not asked yet (a later wave) hold their first page
    const positions = nextPositions(state.plan.providers, triedProviders(state), batches, state.from ?? {});
    const more = hasMore(positions);
    let continuation: SearchContinuation | null = null;
    if (firstPageMayContinue(result.matching.length, request.limit, request.waterfall.max_credits ?? null, more)) {
      await this.resultSets.keep(searchId, { ...result, fingerprint, positions }, gatheredMessagesKey(searchId));
      continuation = { set: searchId, fingerprint, page_start: 0, set_size: result.matching.length, more };
    }
    await this.publish(state, result, continuation);
  }

  private async publish(state: SearchState, result: SearchResult, continuation: SearchContinuation | null) {
    const { request } = state.request;
    await this.answers.publishPage(
      state.request,
      result.matching.slice(0, request.limit),
      result.metadata,
      result.creditedTo,
      continuation,
    );
    this.metrics.searchAnswered(request.waterfall.strategy, result.metadata.status);
  }
}
