import { Inject, Injectable } from '@nestjs/common';
import type { FetchOutcome, NormalizedProviderRecord, ProviderSlug } from '@jobs/contracts';
import { inStageSpan, type Logger } from '@jobs/observability';
import type { ProviderAdapter, ProviderQuery } from '@jobs/provider-adapters';
import { LOGGER } from '@jobs/service-kit';
import { ProviderCallMetrics, providerCallLabel } from './provider-call-metrics.js';

export const PROVIDER_ADAPTERS = Symbol('PROVIDER_ADAPTERS');

export interface ProviderCallResult {
  outcome: FetchOutcome;
  /** Empty unless the outcome is ok. */
  records: NormalizedProviderRecord[];
}

/**
 * One call to one provider's adapter within an absolute deadline, the same for searches,
 * refreshes and async chunks: an unknown provider is an error, a deadline already passed or
 * reached during the call is a timeout, any other failure an error (logged, never thrown: a
 * provider never fails the work that asked for it). The adapters themselves bring the
 * concurrency limit, retries within the deadline and the circuit breaker.
 */
@Injectable()
export class ProviderCalls {
  private readonly adapters: Map<ProviderSlug, ProviderAdapter>;
  private readonly metrics = new ProviderCallMetrics();

  constructor(
    @Inject(PROVIDER_ADAPTERS) adapters: ProviderAdapter[],
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.adapters = new Map(adapters.map((a) => [a.provider, a]));
  }

  async call(
    provider: ProviderSlug,
    query: Omit<ProviderQuery, 'signal'>,
    deadlineAt: number,
    context: Record<string, unknown>,
  ): Promise<ProviderCallResult> {
    const adapter = this.adapters.get(provider);
    if (!adapter) return { outcome: 'provider_error', records: [] };
    if (query.listingIds && !adapter.readsListings) {
      this.logger.warn({ ...context, provider }, 'provider cannot read listings by id');
      return { outcome: 'provider_error', records: [] };
    }
    const budget = deadlineAt - Date.now();
    const startedAt = performance.now();
    if (budget <= 0) {
      this.metrics.record(provider, 'timeout', startedAt);
      return { outcome: 'provider_timeout', records: [] };
    }
    return inStageSpan(
      `provider ${provider} call`,
      { provider, want: query.want, budget_ms: budget },
      async (annotate) => {
        const signal = AbortSignal.timeout(budget);
        try {
          const records = await adapter.search({ ...query, signal });
          annotate({ outcome: 'ok', records: records.length });
          this.metrics.record(provider, 'ok', startedAt);
          return { outcome: 'ok', records };
        } catch (error) {
          const outcome = signal.aborted ? 'provider_timeout' : 'provider_error';
          annotate({ outcome });
          this.metrics.record(provider, providerCallLabel(outcome, error), startedAt);
          this.logger.warn({ ...context, provider, err: error, outcome }, 'provider call failed');
          return { outcome, records: [] };
        }
      },
    );
  }
}
