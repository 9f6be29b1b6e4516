import { Inject, Injectable } from '@nestjs/common';
import type { SearchRecordsDeduplicated } from '@jobs/contracts';
import { annotateStage, type Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';
import { CompleteSearchUseCase } from './complete-search.usecase.js';
import { FanOutUseCase } from './fan-out.usecase.js';
import { SearchStateStore, STATE_TTL_SECONDS } from './search-state.store.js';

/**
 * Gathers the de-duplicated batches of a search; the batch that brings the last provider
 * completes it, unless the deadline sweeper already did.
 */
@Injectable()
export class CollectBatchUseCase {
  constructor(
    private readonly store: SearchStateStore,
    private readonly completeSearch: CompleteSearchUseCase,
    private readonly fanOut: FanOutUseCase,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(message: SearchRecordsDeduplicated.Value): Promise<void> {
    const recorded = await this.store.recordBatch(
      message.search_id,
      { provider: message.provider, outcome: message.outcome, recordsIn: message.records_in, fromStore: message.from_store, jobs: message.jobs, next: message.next },
      STATE_TTL_SECONDS,
    );
    if (!recorded) {
      this.logger.warn({ search_id: message.search_id, provider: message.provider }, 'batch for an unknown or expired search dropped');
      return;
    }
    const { state, complete, batches } = recorded;
    annotateStage({ 'search.id': message.search_id, provider: message.provider, 'provider.outcome': message.outcome, 'records.in': message.records_in, 'batch.jobs': message.jobs.length, 'wave.complete': complete });
    if (!complete) return;
    // The wave is in. Enough unique matching jobs, or no wave left: answer. Otherwise ask the next wave.
    const result = await this.completeSearch.result(state, batches);
    const lastWave = state.wave >= state.plan.waves.length - 1;
    if (lastWave || result.matching.length >= state.request.request.limit) {
      if (!(await this.store.claimCompletion(message.search_id, STATE_TTL_SECONDS))) return;
      await this.completeSearch.execute(state, result, batches);
      return;
    }
    await this.fanOut.nextWave(state);
  }
}
