import { Injectable } from '@nestjs/common';
import { Topics, type ProviderRecordsFetched } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { OwnIndexStore } from '../own-index/own-index.store.js';
import { CanonicalJobRepository } from './canonical-job.repository.js';
import { annotateStage } from '@jobs/observability';

/**
 * Merges one provider's records for a search into canonical jobs and answers the orchestrator
 * with the canonical jobs, in the provider's rank order. For the own index, the jobs its store
 * answers for the search follow the crawler's. Re-processing a redelivered batch finds the
 * same sources and answers the same ids.
 */
@Injectable()
export class DeduplicateBatchUseCase {
  constructor(
    private readonly jobs: CanonicalJobRepository,
    private readonly ownIndex: OwnIndexStore,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(message: ProviderRecordsFetched.Value): Promise<void> {
    const { rows, recordsIn, merged } = await this.jobs.mergeListings(message.records);
    const ids = new Set(rows.map((row) => row.id));
    // a failed own index answers nothing (the orchestrator reports it failed)
    const fromStore = message.index_query && message.outcome === 'ok'
      ? (await this.ownIndex.search({ ...message.index_query, now: new Date() })).filter((row) => !ids.has(row.id))
      : [];
    annotateStage({ 'search.id': message.search_id, provider: message.provider, 'records.in': recordsIn, 'duplicates.merged': merged, 'batch.canonical_jobs': rows.length, 'batch.store_jobs': fromStore.length });
    await this.publisher.publish(Topics.SearchRecordsDeduplicated, {
      v: 1,
      search_id: message.search_id,
      provider: message.provider,
      outcome: message.outcome,
      latency_ms: message.latency_ms,
      records_in: recordsIn,
      duplicates_merged: merged,
      from_store: fromStore.length,
      jobs: [...rows, ...fromStore].map((row) => this.jobs.toJob(row)),
    });
  }
}
