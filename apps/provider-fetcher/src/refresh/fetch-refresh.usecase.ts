import { Inject, Injectable } from '@nestjs/common';
import { Topics, type NormalizedProviderRecord, type RefreshFetchRequested } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import type { Logger } from '@jobs/observability';
import type { ProviderAdapter } from '@jobs/provider-adapters';
import { LOGGER } from '@jobs/service-kit';
import { PROVIDER_ADAPTERS } from '../fetch/fetch-provider.usecase.js';

/**
 * Reads one provider's current listing for one refresh scope, up to `want` records, within the
 * deadline, and hands it to dedupe. `complete` only when the provider answered and the listing
 * ended before `want` (read to its end): only then may dedupe judge absences. A failure or a
 * timeout carries no records and is never complete, so it never closes a job.
 */
@Injectable()
export class FetchRefreshUseCase {
  private readonly adapters: Map<string, ProviderAdapter>;

  constructor(
    @Inject(PROVIDER_ADAPTERS) adapters: ProviderAdapter[],
    private readonly publisher: KafkaPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.adapters = new Map(adapters.map((a) => [a.provider, a]));
  }

  async execute(message: RefreshFetchRequested.Value): Promise<void> {
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
      // the own crawler also lists recently closed openings with their reason
      const filters = message.provider === 'own_index' ? { ...message.scope.filters, include_closed: true } : message.scope.filters;
      try {
        records = await adapter.search({ filters, want: message.want, signal });
      } catch (error) {
        outcome = signal.aborted ? 'provider_timeout' : 'provider_error';
        this.logger.warn({ provider: message.provider, refresh_id: message.refresh_id, scope: message.scope.key, err: error, outcome }, 'refresh fetch failed');
      }
    }
    await this.publisher.publish(Topics.RefreshRecordsFetched, {
      v: 1,
      refresh_id: message.refresh_id,
      scope: message.scope,
      provider: message.provider,
      outcome,
      complete: isComplete(outcome, records.length, message.want),
      latency_ms: Date.now() - started,
      fetched_at: new Date().toISOString(),
      records: outcome === 'ok' ? records : [],
    });
  }
}

/** A listing was read to its end: the provider answered and had fewer records than asked for. */
export function isComplete(outcome: 'ok' | 'provider_error' | 'provider_timeout', records: number, want: number): boolean {
  return outcome === 'ok' && records < want;
}
