import { Inject, Injectable } from '@nestjs/common';
import type { SearchRecordsDeduplicated } from '@jobs/contracts';
import { annotateStage, type Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';
import { FanOutUseCase } from './fan-out.usecase.js';
import { GatheredResult } from './gathered-result.js';
import { SearchCompletion } from './search-completion.js';
import { SearchStateStore, STATE_TTL_SECONDS, type GatheredMessage } from './search-state.store.js';

/**
 * Gathers the de-duplicated batches of a search (a wave's partners in one message, or in parts
 * when some were slow, the own index in another); the message that brings the last provider completes it, unless the
 * deadline sweeper already did.
 */
@Injectable()
export class CollectBatchUseCase {
  constructor(
    private readonly store: SearchStateStore,
    private readonly gatheredResult: GatheredResult,
    private readonly completion: SearchCompletion,
    private readonly fanOut: FanOutUseCase,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(message: SearchRecordsDeduplicated.Value): Promise<void> {
    const gathered: GatheredMessage = {
      jobs: message.jobs,
      batches: message.batches.map((batch) => ({
        provider: batch.provider,
        outcome: batch.outcome,
        recordsIn: batch.records_in,
        duplicatesMerged: batch.duplicates_merged,
        fromStore: batch.from_store,
        jobIds: batch.job_ids,
        next: batch.next,
        ...(batch.total !== undefined ? { total: batch.total } : {}),
        ...(batch.store_count ? { storeCount: batch.store_count } : {}),
      })),
    };
    const recorded = await this.store.recordGathered(message.search_id, gathered, STATE_TTL_SECONDS);
    const providers = message.batches.map((batch) => batch.provider).join(',');
    if (!recorded) {
      this.logger.warn({ search_id: message.search_id, providers }, 'batches for an unknown or expired search dropped');
      return;
    }
    const { state, complete } = recorded;
    annotateStage({
      'search.id': message.search_id,
      providers,
      'records.in': message.batches.reduce((sum, b) => sum + b.records_in, 0),
      'batch.jobs': message.jobs.length,
      'wave.complete': complete,
    });
    if (!complete) return;
    // The wave is in. Enough unique matching jobs, or no wave left: answer. Otherwise ask the next wave.
    const batches = await this.gatheredResult.batches(state, recorded.batches);
    const result = this.gatheredResult.of(state, batches);
    const lastWave = state.wave >= state.plan.waves.length - 1;
    if (lastWave || result.matching.length >= state.request.request.limit) {
      await this.completion.claimAndAnswer(state, result, batches);
      return;
    }
    await this.fanOut.nextWave(state);
  }
}
