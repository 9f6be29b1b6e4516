import { Injectable } from '@nestjs/common';
import { Topics, type ProviderRecordsFetched } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { OwnIndexStore } from '../own-index/own-index.store.js';
import { CanonicalJobRepository } from './canonical-job.repository.js';
import { annotateStage, jobsMeter, secondsHistogram, secondsSince } from '@jobs/observability';

/**
 * Merges one provider's records for a search into canonical jobs and answers the orchestrator
 * with the canonical jobs, in the provider's rank order. The own index's leg carries no records:
 * its store answers the search (an indexed query, kept current by the refresh pipeline). Re-processing a redelivered batch finds the
 * same sources and answers the same ids.
 */
@Injectable()
export class DeduplicateBatchUseCase {
  /** `own_index_query_seconds`: the own index leg of a search, its store query and the jobs it loads. */
  private readonly ownIndexSeconds = secondsHistogram(jobsMeter(), 'own_index_query_seconds', 'The own index leg of a search: its store query and the jobs it loads.');

  constructor(
    private readonly jobs: CanonicalJobRepository,
    private readonly ownIndex: OwnIndexStore,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(message: ProviderRecordsFetched.Value): Promise<void> {
    const { rows, recordsIn, merged } = message.records.length > 0 ? await this.jobs.mergeListings(message.records) : { rows: [], recordsIn: 0, merged: 0 };
    const ids = new Set(rows.map((row) => row.id));
    let fromStore: typeof rows = [];
    let next = message.next;
    if (message.index_query && message.outcome === 'ok') {
      // the store in a stable order (first seen, then id, newest first): a later page continues after its last job
      const { filters, scope, want, after } = message.index_query;
      const queryStarted = performance.now();
      const page = await this.ownIndex.page({ filters, scope, want, after: after ? { firstSeenAt: new Date(after.first_seen_at), id: after.id } : null, now: new Date() });
      this.ownIndexSeconds.record(secondsSince(queryStarted), { want_band: want > 50 ? '51-100' : '1-50' });
      fromStore = page.rows.filter((row) => !ids.has(row.id));
      next = page.next ? { kind: 'store', after: { first_seen_at: page.next.firstSeenAt.toISOString(), id: page.next.id } } : null;
    }
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
      ...(next !== undefined ? { next } : {}),
    });
  }
}
