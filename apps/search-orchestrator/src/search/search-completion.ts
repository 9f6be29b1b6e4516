import { Injectable } from '@nestjs/common';
import type { ProviderBatch, SearchResult } from '@jobs/waterfall';
import { AnswerEstimateUseCase } from './answer-estimate.usecase.js';
import { AnswerFirstPageUseCase } from './answer-first-page.usecase.js';
import { ExtendResultSetUseCase } from './extend-result-set.usecase.js';
import type { SearchState } from './search-state.store.js';

/**
 * Hands a search whose last batch is in (or whose deadline passed) to the use case for what it
 * is: a round of reads for a later page, a dry run, or a first page. Callers must have claimed
 * the completion.
 */
@Injectable()
export class SearchCompletion {
  constructor(
    private readonly firstPage: AnswerFirstPageUseCase,
    private readonly extendResultSet: ExtendResultSetUseCase,
    private readonly estimate: AnswerEstimateUseCase,
  ) {}

  /** `result` and `batches`: what the caller already has (batches are large, read once per search). */
  answer(state: SearchState, result?: SearchResult, batches?: ProviderBatch[]): Promise<void> {
    if (state.extension) return this.extendResultSet.execute(state, batches);
    if (state.request.request.dry_run) return this.estimate.execute(state, batches);
    return this.firstPage.execute(state, result, batches);
  }
}
