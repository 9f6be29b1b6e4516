import { Injectable } from '@nestjs/common';
import { Topics, type ProviderRecordsFetched, type SearchRecordsDeduplicated } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { OwnIndexStore } from '../own-index/own-index.store.js';
import { CanonicalJobRepository } from './canonical-job.repository.js';
import { deduplicatedParts } from './deduplicated-parts.js';
import type { CanonicalJobRow } from './job-view.js';
import { annotateStage, jobsMeter, secondsHistogram, secondsSince } from '@jobs/observability';

/**
 * Merges one wave of a search (every partner's records together: one read of the known
 * listings, one merge transaction, one load) into canonical jobs and answers the orchestrator
 * once, with each provider's canonical jobs in its rank order; then writes the wave's sightings
 * of listings the store knew unchanged. The own index's leg carries no records: its store
 * answers the search (an indexed query, kept current by the refresh pipeline). Re-processing a redelivered wave finds
 * the same sources and answers the same ids.
 */
@Injectable()
export class DeduplicateWaveUseCase {
  /** `own_index_query_seconds`: the own index leg of a search, its store query and the jobs it loads. */
  private readonly ownIndexSeconds = secondsHistogram(
    jobsMeter(),
    'own_index_query_seconds',
    'The own index leg of a search: its store query and the jobs it loads.',
  );

  constructor(
    private readonly jobs: CanonicalJobRepository,
    private readonly ownIndex: OwnIndexStore,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(message: ProviderRecordsFetched.Value): Promise<void> {
    const records = message.batches.flatMap((batch) => batch.records);
    const merge =
      records.length > 0
        ? await this.jobs.mergeListings(records)
        : { rows: [], outcomes: [], merged: 0, writeSightings: async () => undefined };
    const rowsById = new Map<string, CanonicalJobRow>(merge.rows.map((row) => [row.id, row]));
    let at = 0;
    const batches: SearchRecordsDeduplicated.DeduplicatedBatch[] = [];
    for (const batch of message.batches) {
      const outcomes = merge.outcomes.slice(at, (at += batch.records.length));
      const live = outcomes.filter((o) => o !== null);
      // the batch's jobs in its rank order, each once
      const ids = [...new Set(live.map((o) => o.jobId))];
      let fromStore = 0;
      let next = batch.next;
      let storeCount: SearchRecordsDeduplicated.StoreCount | undefined;
      if (message.index_query && batch.outcome === 'ok') {
        // the store in a stable order (first seen, then id, newest first): a later page continues after its last job
        const { filters, scope, want, after } = message.index_query;
        const queryStarted = performance.now();
        const page = await this.ownIndex.page({
          filters,
          scope,
          want,
          after: after ? { firstSeenAt: new Date(after.first_seen_at), id: after.id } : null,
          now: new Date(),
        });
        this.ownIndexSeconds.record(secondsSince(queryStarted), { want_band: want > 50 ? '51-100' : '1-50' });
        const known = new Set(ids);
        for (const row of page.rows) {
          if (known.has(row.id)) continue;
          rowsById.set(row.id, row);
          ids.push(row.id);
          fromStore += 1;
        }
        next = page.next
          ? { kind: 'store', after: { first_seen_at: page.next.firstSeenAt.toISOString(), id: page.next.id } }
          : null;
        if (message.index_query.count) {
          const { account_id: accountId, min_sources: minSources } = message.index_query.count;
          storeCount = await this.ownIndex.count({ filters, scope, accountId, minSources, now: new Date() });
        }
      }
      batches.push({
        provider: batch.provider,
        outcome: batch.outcome,
        latency_ms: batch.latency_ms,
        records_in: live.length,
        // records of this batch merged into a job that existed before them (sightings of known listings too)
        duplicates_merged: live.filter((o) => o.merged).length,
        from_store: fromStore,
        job_ids: ids,
        ...(next !== undefined ? { next } : {}),
        ...(batch.total !== undefined ? { total: batch.total } : {}),
        ...(storeCount ? { store_count: storeCount } : {}),
      });
    }
    annotateStage({
      'search.id': message.search_id,
      'wave.providers': batches.length,
      'records.in': records.length,
      'duplicates.merged': merge.merged,
      'batch.canonical_jobs': merge.rows.length,
      'batch.store_jobs': batches.reduce((sum, b) => sum + b.from_store, 0),
    });
    const jobs = [...rowsById.values()].map((row) => this.jobs.toJob(row));
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
