import { matching, parsePrometheusText, sumOf } from './prometheus-text.js';

// As the OpenTelemetry exporter writes it: target_info, then count and sum before the buckets.
const TEXT = `# HELP target_info Target metadata
# TYPE target_info gauge
target_info{service_name="billing"} 1
# HELP kafka_consumer_messages_total Messages handled.
# TYPE kafka_consumer_messages_total counter
kafka_consumer_messages_total{topic="a",group="g",outcome="ok",otel_scope_name="@jobs/metrics"} 3
kafka_consumer_messages_total{topic="b",group="g",outcome="ok",otel_scope_name="@jobs/metrics"} 4
kafka_consumer_messages_total{topic="b",group="g",outcome="retried",otel_scope_name="@jobs/metrics"} 1
# UNIT provider_call_seconds s
# TYPE provider_call_seconds histogram
provider_call_seconds_count{provider="provider_b",outcome="error"} 2
provider_call_seconds_sum{provider="provider_b",outcome="error"} 0.5
provider_call_seconds_bucket{provider="provider_b",outcome="error",le="0.1"} 1
provider_call_seconds_bucket{provider="provider_b",outcome="error",le="+Inf"} 2
odd{note="a \\"quoted\\", back\\\\slash\\nline",} NaN 1700000000000
`;

describe('parsePrometheusText', () => {
  const exposition = parsePrometheusText(TEXT);

  it('reads every sample with its labels and the type of each family', () => {
    expect(exposition.types).toEqual({
      target_info: 'gauge',
      kafka_consumer_messages_total: 'counter',
      provider_call_seconds: 'histogram',
    });
    expect(exposition.samples).toHaveLength(9);
    expect(matching(exposition, 'provider_call_seconds_bucket', { le: '+Inf' })).toEqual([
      {
        name: 'provider_call_seconds_bucket',
        labels: { provider: 'provider_b', outcome: 'error', le: '+Inf' },
        value: 2,
      },
    ]);
  });

  it('sums the samples whose labels include the ones asked for', () => {
    expect(sumOf(exposition, 'kafka_consumer_messages_total', { group: 'g' })).toBe(8);
    expect(sumOf(exposition, 'kafka_consumer_messages_total', { topic: 'b', outcome: 'ok' })).toBe(4);
    expect(sumOf(exposition, 'provider_call_seconds_count', { provider: 'provider_b' })).toBe(2);
    expect(sumOf(exposition, 'missing_total')).toBe(0);
  });

  it('unescapes label values, takes a trailing comma and a timestamp, and reads NaN', () => {
    const [odd] = matching(exposition, 'odd');
    expect(odd!.labels).toEqual({ note: 'a "quoted", back\\slash\nline' });
    expect(odd!.value).toBeNaN();
  });

  it('refuses what is not the text format', () => {
    expect(() => parsePrometheusText('{"metrics": []}')).toThrow('line 1 is not a Prometheus sample');
    expect(() => parsePrometheusText('a{b=c} 1')).toThrow('unreadable labels');
    expect(() => parsePrometheusText('a 1x')).toThrow('unreadable value');
  });
});
