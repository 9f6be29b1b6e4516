import type { Counter, Histogram } from '@opentelemetry/api';
import type { FetchOutcome, ProviderSlug } from '@jobs/contracts';
import { jobsMeter, secondsHistogram, secondsSince } from '@jobs/observability';
import { CircuitOpenError } from '@jobs/provider-adapters';

/** How a provider call ended, as the metrics label it. */
export type ProviderCallLabel = 'ok' | 'error' | 'timeout' | 'breaker_open';

/** A refused call of an open circuit is told apart from a failed one: the provider was not asked. */
export function providerCallLabel(outcome: FetchOutcome, error?: unknown): ProviderCallLabel {
  if (outcome === 'ok') return 'ok';
  if (outcome === 'provider_timeout') return 'timeout';
  return error instanceof CircuitOpenError ? 'breaker_open' : 'error';
}

/** `provider_calls_total` and `provider_call_seconds`, by provider and outcome. */
export class ProviderCallMetrics {
  private readonly calls: Counter;
  private readonly seconds: Histogram;

  constructor() {
    const meter = jobsMeter();
    this.calls = meter.createCounter('provider_calls_total', {
      description: 'Calls to providers, by provider and outcome (ok, error, timeout, breaker_open).',
    });
    this.seconds = secondsHistogram(
      meter,
      'provider_call_seconds',
      'Provider call latency, retries included, by provider and outcome.',
    );
  }

  record(provider: ProviderSlug, label: ProviderCallLabel, startedAt: number): void {
    const attributes = { provider, outcome: label };
    this.calls.add(1, attributes);
    this.seconds.record(secondsSince(startedAt), attributes);
  }
}
