import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';
import type { ProviderBatch, SearchResult } from '@jobs/waterfall';
import { AnswerEstimateUseCase } from './answer-estimate.usecase.js';
import { AnswerFirstPageUseCase } from './answer-first-page.usecase.js';
import { ExtendResultSetUseCase } from './extend-result-set.usecase.js';
import { AnswerPartlySent } from './search-answers.js';
import { SearchStateStore, STATE_TTL_SECONDS, type SearchState } from './search-state.store.js';

const RETRY_AFTER_MS = 1_000;
/** How long after its deadline a search without `answer_by` is still worth answering. */
const ANSWER_WANTED_AFTER_DEADLINE_MS = 5_000;

const answerWanted = (request: SearchState['request']): number =>
  request.answer_by ? Date.parse(request.answer_by) : request.deadline_at + ANSWER_WANTED_AFTER_DEADLINE_MS;

/**
 * Completes a search whose last batch is in (or whose deadline passed), once: claims it, then
 * hands it to the use case for what it is: a round of reads for a later page, a dry run, or a
 * first page.
 */
@Injectable()
export class SearchCompletion {
  constructor(
    private readonly store: SearchStateStore,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly firstPage: AnswerFirstPageUseCase,
    private readonly extendResultSet: ExtendResultSetUseCase,
    private readonly estimate: AnswerEstimateUseCase,
  ) {}

  /**
   * False when another caller claimed the search first. An answer that fails before any of it
   * left (a publish refused) releases the claim before the error goes on, so the search is
   * answered a moment later rather than never, while its asker still waits. `result` and
   * `batches`: what the caller already has (batches are large, read once per search).
   */
  async claimAndAnswer(state: SearchState, result?: SearchResult, batches?: ProviderBatch[]): Promise<boolean> {
    const searchId = state.request.search_id;
    if (!(await this.store.claimCompletion(searchId, STATE_TTL_SECONDS))) return false;
    try {
      await this.answer(state, result, batches);
    } catch (error) {
      await this.releaseIfNothingSent(state, error);
      throw error;
    }
    return true;
  }

  /** Opens the search to a claim again when nothing of its answer left and its asker still waits. */
  private async releaseIfNothingSent(state: SearchState, error: unknown): Promise<void> {
    if (error instanceof AnswerPartlySent) return;
    // past it the caller was answered internal_error, and billing refuses the page
    if (Date.now() >= answerWanted(state.request)) return;
    const searchId = state.request.search_id;
    try {
      // a second later, not at once: a publish refused now is likely refused again right away
      await this.store.releaseCompletion(searchId, Date.now() + RETRY_AFTER_MS);
    } catch (releaseError) {
      this.logger.warn({ err: releaseError, search_id: searchId }, 'a failed answer could not be released: unanswered');
    }
  }

  private answer(state: SearchState, result?: SearchResult, batches?: ProviderBatch[]): Promise<void> {
    if (state.extension) return this.extendResultSet.execute(state, batches);
    if (state.request.request.dry_run) return this.estimate.execute(state, batches);
    return this.firstPage.execute(state, result, batches);
  }
}
