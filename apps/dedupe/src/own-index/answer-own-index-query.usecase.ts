import { Injectable } from '@nestjs/common';
import { Topics, type OwnIndexQueryRequested, type SearchRecordsDeduplicated } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { annotateStage, jobsMeter, secondsHistogram, secondsSince } from '@jobs/observability';
import { CanonicalJobRepository } from '../canonical-jobs/canonical-job.repository.js';
import { OwnIndexStore } from './own-index.store.js';

/**
 * The own index's leg of a search: a page of the store of canonical jobs (an indexed query, kept
 * current by the refresh pipeline), newest first, answered to the orchestrator as the own index's
 * batch; for a dry run the store's counts too. Nothing is merged: the leg carries no records.
 */
@Injectable()
export class AnswerOwnIndexQueryUseCase {
  /** `own_index_query_seconds`: the own index leg of a search, its store query and the jobs it loads. */
  private readonly ownIndexSeconds = secondsHistogram(
    jobsMeter(),
    'own_index_query_seconds',
    'The own index leg of a search: its store query and the jobs it loads.',
  );

  constructor(
    private readonly ownIndex: OwnIndexStore,
    private readonly jobs: CanonicalJobRepository,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(message: OwnIndexQueryRequested.Value): Promise<void> {
    const { filters, scope, want, after } = message;
    const started = performance.now();
    // the store in a stable order (first seen, then id, newest first): a later page continues after its last job
    const page = await this.ownIndex.page({
      filters,
      scope,
      want,
      after: after ? { firstSeenAt: new Date(after.first_seen_at), id: after.id } : null,
      now: new Date(),
      ...(message.min_sources ? { minSources: message.min_sources } : {}),
    });
    this.ownIndexSeconds.record(secondsSince(started), { want_band: want > 50 ? '51-100' : '1-50' });
    let storeCount: SearchRecordsDeduplicated.StoreCount | undefined;
    if (message.count) {
      const { account_id: accountId, min_sources: minSources } = message.count;
      storeCount = await this.ownIndex.count({ filters, scope, accountId, minSources, now: new Date() });
    }
    const batch: SearchRecordsDeduplicated.DeduplicatedBatch = {
      provider: 'own_index',
      outcome: 'ok',
      latency_ms: Math.round(performance.now() - started),
      records_in: 0,
      duplicates_merged: 0,
      from_store: page.rows.length,
      job_ids: page.rows.map((row) => row.id),
      next: page.next
        ? { kind: 'store', after: { first_seen_at: page.next.firstSeenAt.toISOString(), id: page.next.id } }
        : null,
      ...(storeCount ? { store_count: storeCount } : {}),
    };
    annotateStage({ 'search.id': message.search_id, 'batch.store_jobs': page.rows.length });
    await this.publisher.publish(Topics.SearchRecordsDeduplicated, {
      v: 1,
      search_id: message.search_id,
      jobs: page.rows.map((row) => this.jobs.toJob(row)),
      batches: [batch],
    });
  }
}
