import { Injectable } from '@nestjs/common';
import { Topics, type ProviderFetchRequested, type ProviderRecordsFetched } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import type { ResumablePaging } from '@jobs/provider-adapters';
import { ProviderCalls } from '../calls/provider-calls.js';
import { annotateStage } from '@jobs/observability';

/**
 * Calls every partner of one wave of a search side by side, each within the search's deadline,
 * and hands the whole wave to dedupe in one message once the last one answered (or the deadline
 * passed): one produce, one merge and one answer per wave instead of one per provider. A
 * provider that fails or misses the deadline is reported as such; it never fails the search and
 * never costs anything.
 */
@Injectable()
export class FetchWaveUseCase {
  constructor(
    private readonly calls: ProviderCalls,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(message: ProviderFetchRequested.Value): Promise<void> {
    const batches = await Promise.all(message.providers.map((ask) => this.fetch(message, ask)));
    annotateStage({ 'search.id': message.search_id, 'wave.providers': batches.length, 'records.out': batches.reduce((sum, b) => sum + b.records.length, 0) });
    await this.publisher.publish(Topics.ProviderRecordsFetched, { v: 1, search_id: message.search_id, batches });
  }

  private async fetch(message: ProviderFetchRequested.Value, ask: ProviderFetchRequested.Value['providers'][number]): Promise<ProviderRecordsFetched.FetchedBatch> {
    const started = Date.now();
    // paged from where the search's previous page of this provider ended (its first page by default)
    const paging: ResumablePaging = { start: ask.from ?? null };
    const { outcome, records } = await this.calls.call(ask.provider, { filters: message.filters, want: message.want, paging }, message.deadline_at, { search_id: message.search_id });
    return {
      provider: ask.provider,
      outcome,
      latency_ms: Date.now() - started,
      fetched_at: new Date().toISOString(),
      records,
      // where a later page continues: unchanged after a failure, so it can be asked again
      next: outcome === 'ok' ? (paging.next ? { kind: 'pages', page: paging.next } : null) : { kind: 'pages', page: ask.from ?? null },
    };
  }
}
