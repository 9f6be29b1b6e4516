import { Injectable } from '@nestjs/common';
import type { ProviderBatch, SearchResult } from '@jobs/waterfall';
import { AnswerEstimateUseCase } from './answer-estimate.usecase.js';
import { AnswerFirstPageUseCase } from './answer-first-page.usecase.js';
import { ExtendResultSetUseCase } from './extend-result-set.usecase.js';
import { SearchStateStore, STATE_TTL_SECONDS, type SearchState } from './search-state.store.js';

const RETRY_AFTER_MS = 1_000;

/**
 * Completes a search whose last batch is in (or whose deadline passed), once: claims it, then
 * hands it to the use case for what it is: a round of reads for a later page, a dry run, or a
 * first page.
 */
@Injectable()
export class SearchCompletion {
  constructor(
    private readonly store: SearchStateStore,
    private readonly firstPage: AnswerFirstPageUseCase,
    private readonly extendResultSet: ExtendResultSetUseCase,
    private readonly estimate: AnswerEstimateUseCase,
  ) {}

  /**
   * False when another caller claimed the search first. An answer that fails (a publish refused)
   * releases the claim before the error goes on, so the search is answered later rather than
   * never. `result` and `batches`: what the caller already has (batches are large, read once per
   * search).
   */
  async claimAndAnswer(state: SearchState, result?: SearchResult, batches?: ProviderBatch[]): Promise<boolean> {
    const searchId = state.request.search_id;
    if (!(await this.store.claimCompletion(searchId, STATE_TTL_SECONDS))) return false;
    try {
      await this.answer(state, result, batches);
    } catch (error) {
      // a second later, not at once: a publish refused now is likely refused again right away
      await this.store.releaseCompletion(searchId, Date.now() + RETRY_AFTER_MS);
      throw error;
    }
    return true;
  }

  private answer(state: SearchState, result?: SearchResult, batches?: ProviderBatch[]): Promise<void> {
    if (state.extension) return this.extendResultSet.execute(state, batches);
    if (state.request.request.dry_run) return this.estimate.execute(state, batches);
    return this.firstPage.execute(state, result, batches);
  }
}
