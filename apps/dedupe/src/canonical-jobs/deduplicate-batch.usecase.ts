import { Injectable } from '@nestjs/common';
import { Topics, type ProviderRecordsFetched } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { CanonicalJobRepository } from './canonical-job.repository.js';

/**
 * Merges one provider's records for a search into canonical jobs and answers the orchestrator
 * with the canonical jobs, in the provider's rank order. Re-processing a redelivered batch
 * finds the same sources and answers the same ids.
 */
@Injectable()
export class DeduplicateBatchUseCase {
  constructor(
    private readonly jobs: CanonicalJobRepository,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(message: ProviderRecordsFetched.Value): Promise<void> {
    const ids: string[] = [];
    let merged = 0;
    // one transaction for the whole provider batch: bulk lookups, one set of locks
    for (const result of await this.jobs.mergeBatch(message.records)) {
      if (result.merged) merged += 1;
      if (!ids.includes(result.jobId)) ids.push(result.jobId);
    }
    const rows = await this.jobs.load(ids);
    await this.publisher.publish(Topics.SearchRecordsDeduplicated, {
      v: 1,
      search_id: message.search_id,
      provider: message.provider,
      outcome: message.outcome,
      latency_ms: message.latency_ms,
      records_in: message.records.length,
      duplicates_merged: Math.min(merged, message.records.length),
      jobs: rows.map((row) => this.jobs.toJob(row)),
    });
  }
}
