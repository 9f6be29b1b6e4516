import { Inject, Injectable } from '@nestjs/common';
import { Topics, type NormalizedProviderRecord, type ProviderFetchRequested } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import type { Logger } from '@jobs/observability';
import { type ProviderAdapter } from '@jobs/provider-adapters';
import { LOGGER } from '@jobs/service-kit';

export const PROVIDER_ADAPTERS = Symbol('PROVIDER_ADAPTERS');

/**
 * Calls one provider for one search within the search's deadline and hands the normalized
 * records to dedupe. A provider that fails or misses the deadline is reported as such; it
 * never fails the search and never costs anything.
 */
@Injectable()
export class FetchProviderUseCase {
  private readonly adapters: Map<string, ProviderAdapter>;

  constructor(
    @Inject(PROVIDER_ADAPTERS) adapters: ProviderAdapter[],
    private readonly publisher: KafkaPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.adapters = new Map(adapters.map((a) => [a.provider, a]));
  }

  async execute(message: ProviderFetchRequested.Value): Promise<void> {
    const started = Date.now();
    const budget = message.deadline_at - started;
    let outcome: 'ok' | 'provider_error' | 'provider_timeout' = 'ok';
    let records: NormalizedProviderRecord[] = [];
    const adapter = this.adapters.get(message.provider);
    if (!adapter) {
      outcome = 'provider_error';
    } else if (budget <= 0) {
      outcome = 'provider_timeout';
    } else {
      const signal = AbortSignal.timeout(budget);
      try {
        records = await adapter.search({ filters: message.filters, want: message.want, signal });
      } catch (error) {
        outcome = signal.aborted ? 'provider_timeout' : 'provider_error';
        this.logger.warn({ provider: message.provider, search_id: message.search_id, err: error, outcome }, 'provider fetch failed');
      }
    }
    await this.publisher.publish(Topics.ProviderRecordsFetched, {
      v: 1,
      search_id: message.search_id,
      provider: message.provider,
      outcome,
      latency_ms: Date.now() - started,
      fetched_at: new Date().toISOString(),
      records: outcome === 'ok' ? records : [],
      // the store answers whatever became of the crawler's call
      ...(message.index_scope ? { index_query: { filters: message.filters, want: message.want, scope: message.index_scope } } : {}),
    });
  }
}
