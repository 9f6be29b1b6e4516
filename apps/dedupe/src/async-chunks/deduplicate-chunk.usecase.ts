import { Injectable } from '@nestjs/common';
import { Topics, type AsyncChunkFetched, type ChunkPosition } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { CanonicalJobRepository } from '../canonical-jobs/canonical-job.repository.js';
import type { CanonicalJobRow } from '../canonical-jobs/job-view.js';
import { OwnIndexStore } from '../own-index/own-index.store.js';

/**
 * Merges one chunk of an async search into canonical jobs (one transaction per chunk, as for a
 * sync provider batch) and answers the orchestrator with the jobs in the provider's rank order
 * and where the provider's next chunk starts. An own-index store chunk is one store page in the
 * stable store order; its next position is the last job of the page. Redelivered, it merges into
 * the same jobs and answers the same ids. `duplicates_merged` counts the chunk's records merged
 * into a canonical job that existed before them (`ListingsMerged.merged`), sightings of listings
 * the store knows included; a store chunk has no records.
 */
@Injectable()
export class DeduplicateChunkUseCase {
  constructor(
    private readonly jobs: CanonicalJobRepository,
    private readonly ownIndex: OwnIndexStore,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(message: AsyncChunkFetched.Value): Promise<void> {
    let rows: CanonicalJobRow[] = [];
    let merged = 0;
    let recordsIn = 0;
    let next: ChunkPosition | null = message.next;
    let writeSightings = async (): Promise<void> => undefined;
    if (message.outcome === 'ok' && message.index_query) {
      const { filters, scope, want, after, as_of, min_sources: minSources } = message.index_query;
      const page = await this.ownIndex.page({
        filters,
        scope,
        want,
        ...(minSources !== undefined ? { minSources } : {}),
        now: new Date(as_of),
        after: after ? { firstSeenAt: new Date(after.first_seen_at), id: after.id } : null,
      });
      rows = page.rows;
      next = page.next
        ? { kind: 'store', after: { first_seen_at: page.next.firstSeenAt.toISOString(), id: page.next.id } }
        : null;
    } else if (message.records.length > 0) {
      ({ rows, recordsIn, merged, writeSightings } = await this.jobs.mergeListings(message.records));
    }
    await this.publisher.publish(Topics.AsyncChunkDeduplicated, {
      v: 1,
      search_id: message.search_id,
      provider: message.provider,
      chunk: message.chunk,
      attempt: message.attempt,
      outcome: message.outcome,
      latency_ms: message.latency_ms,
      records_in: recordsIn,
      duplicates_merged: merged,
      jobs: rows.map((row) => this.jobs.toJob(row)),
      next,
    });
    await writeSightings();
  }
}
