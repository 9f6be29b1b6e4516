import { Injectable } from '@nestjs/common';
import { Topics, type ProviderRecordsFetched, type SearchRecordsDeduplicated } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { CanonicalJobRepository } from './canonical-job.repository.js';
import { deduplicatedParts } from './deduplicated-parts.js';
import { annotateStage } from '@jobs/observability';

/**
 * Merges one wave of a search's partners (every partner's records together: one read of the known
 * listings, one merge transaction, one load) into canonical jobs and answers the orchestrator
 * once, with each provider's canonical jobs in its rank order; then writes the wave's sightings
 * of listings the store knew unchanged. The own index's leg is not a wave: AnswerOwnIndexQueryUseCase
 * answers it from the store. Re-processing a redelivered wave finds the same sources and answers
 * the same ids.
 */
@Injectable()
export class DeduplicateWaveUseCase {
  constructor(
    private readonly jobs: CanonicalJobRepository,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(message: ProviderRecordsFetched.Value): Promise<void> {
    const records = message.batches.flatMap((batch) => batch.records);
    const merge =
      records.length > 0
        ? await this.jobs.mergeListings(records)
        : { rows: [], outcomes: [], merged: 0, writeSightings: async () => undefined };
    let at = 0;
    const batches: SearchRecordsDeduplicated.DeduplicatedBatch[] = [];
    for (const batch of message.batches) {
      const outcomes = merge.outcomes.slice(at, (at += batch.records.length));
      const live = outcomes.filter((o) => o !== null);
      // the batch's jobs in its rank order, each once
      const ids = [...new Set(live.map((o) => o.jobId))];
      batches.push({
        provider: batch.provider,
        outcome: batch.outcome,
        latency_ms: batch.latency_ms,
        records_in: live.length,
        // records of this batch merged into a job that existed before them (sightings of known listings too)
        duplicates_merged: live.filter((o) => o.merged).length,
        from_store: 0,
        job_ids: ids,
        ...(batch.next !== undefined ? { next: batch.next } : {}),
        ...(batch.total !== undefined ? { total: batch.total } : {}),
      });
    }
    annotateStage({
      'search.id': message.search_id,
      'wave.providers': batches.length,
      'records.in': records.length,
      'duplicates.merged': merge.merged,
      'batch.canonical_jobs': merge.rows.length,
    });
    // each canonical job once, however many of the wave's records it merged
    const jobs = [...new Map(merge.rows.map((row) => [row.id, row])).values()].map((row) => this.jobs.toJob(row));
    // a wave of several full batches (a deep page's extension round) may not fit one message
    await Promise.all(
      deduplicatedParts(jobs, batches).map((part) =>
        this.publisher.publish(Topics.SearchRecordsDeduplicated, { v: 1, search_id: message.search_id, ...part }),
      ),
    );
    // after the answer: the search does not wait for this statement (its rows already show the sightings)
    await merge.writeSightings();
  }
}
