import { Injectable } from '@nestjs/common';
import { Topics, type ProviderFetchRequested } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import type { ResumablePaging } from '@jobs/provider-adapters';
import { ProviderCalls } from '../calls/provider-calls.js';
import { annotateStage } from '@jobs/observability';

/**
 * Calls one provider for one search within the search's deadline and hands the normalized
 * records to dedupe. A provider that fails or misses the deadline is reported as such; it
 * never fails the search and never costs anything.
 */
@Injectable()
export class FetchProviderUseCase {
  constructor(
    private readonly calls: ProviderCalls,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(message: ProviderFetchRequested.Value): Promise<void> {
    const started = Date.now();
    // paged from where the search's previous page of this provider ended (its first page by default)
    const paging: ResumablePaging = { start: message.from ?? null };
    const { outcome, records } = await this.calls.call(message.provider, { filters: message.filters, want: message.want, paging }, message.deadline_at, { search_id: message.search_id });
    annotateStage({ 'search.id': message.search_id, provider: message.provider, 'provider.outcome': outcome, 'records.out': records.length });
    await this.publisher.publish(Topics.ProviderRecordsFetched, {
      v: 1,
      search_id: message.search_id,
      provider: message.provider,
      outcome,
      latency_ms: Date.now() - started,
      fetched_at: new Date().toISOString(),
      records,
      // where a later page continues: unchanged after a failure, so it can be asked again
      next: outcome === 'ok' ? (paging.next ? { kind: 'pages', page: paging.next } : null) : { kind: 'pages', page: message.from ?? null },
    });
  }
}
