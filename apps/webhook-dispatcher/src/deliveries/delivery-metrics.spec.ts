import { metrics } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { prometheusReader, scrapeMetrics } from '@jobs/observability';
import { attemptLabel, DeliveryMetrics } from './delivery-metrics.js';

describe('attemptLabel', () => {
  it('labels an attempt by the status it left its delivery in', () => {
    expect(attemptLabel('succeeded')).toBe('delivered');
    expect(attemptLabel('pending')).toBe('retrying');
    expect(attemptLabel('failed')).toBe('gave_up');
    expect(attemptLabel('refused')).toBe('refused');
  });
});

describe('webhook_delivery_lag_seconds', () => {
  let provider: MeterProvider;
  beforeAll(() => {
    provider = new MeterProvider({ readers: [prometheusReader()] });
    metrics.setGlobalMeterProvider(provider);
  });
  afterAll(async () => {
    metrics.disable();
    await provider.shutdown();
  });

  it("counts the first attempt of an original delivery, from the event's creation, and nothing else", async () => {
    const deliveryMetrics = new DeliveryMetrics();
    const created = new Date('2026-11-28T12:00:00.000Z');
    const at = (seconds: number) => new Date(created.getTime() + seconds * 1000);
    deliveryMetrics.started({ kind: 'original', attempt: 1, eventCreatedAt: created }, at(3));
    deliveryMetrics.started({ kind: 'original', attempt: 1, eventCreatedAt: created }, at(45));
    // a retry measures the endpoint, a replay resends an old event on request: neither is freshness
    deliveryMetrics.started({ kind: 'original', attempt: 2, eventCreatedAt: created }, at(600));
    deliveryMetrics.started({ kind: 'replay', attempt: 1, eventCreatedAt: created }, at(86_400));
    const text = await scrapeMetrics();
    expect(text).toMatch(/^webhook_delivery_lag_seconds_count\{[^}]*\} 2$/m);
    expect(text).toMatch(/^webhook_delivery_lag_seconds_bucket\{[^}]*le="10"\} 1$/m);
    expect(text).toMatch(/^webhook_delivery_lag_seconds_bucket\{[^}]*le="60"\} 2$/m);
    expect(text).toMatch(/^webhook_delivery_lag_seconds_sum\{[^}]*\} 48$/m);
  });
});
