import { trace } from '@opentelemetry/api';
import { annotateStage, inStageSpan } from './stage-span.js';
import { useInMemoryTracing } from './testing/in-memory-tracing.js';

const exporter = useInMemoryTracing();

describe('stage spans', () => {
  it('annotates the active span with jobs.-prefixed attributes and leaves out empty values', () => {
    trace.getTracer('t').startActiveSpan('stage', (span) => {
      annotateStage({
        provider: 'provider_a',
        'records.in': 12,
        'page.already_paid': 3,
        missing: undefined,
        nothing: null,
      });
      span.end();
    });
    const [stage] = exporter.getFinishedSpans();
    expect(stage!.attributes).toEqual({
      'jobs.provider': 'provider_a',
      'jobs.records.in': 12,
      'jobs.page.already_paid': 3,
    });
  });

  it('is a no-op outside a span', () => {
    expect(() => annotateStage({ provider: 'provider_a' })).not.toThrow();
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it('runs a step in a child span of the stage, with attributes added on the way', async () => {
    await trace.getTracer('t').startActiveSpan('stage', async (span) => {
      const answer = await inStageSpan('provider provider_b call', { provider: 'provider_b' }, async (annotate) => {
        annotate({ outcome: 'ok', records: 4 });
        return 42;
      });
      expect(answer).toBe(42);
      span.end();
    });
    const [child, parent] = exporter.getFinishedSpans();
    expect(child!.name).toBe('provider provider_b call');
    expect(child!.parentSpanContext?.spanId).toBe(parent!.spanContext().spanId);
    expect(child!.attributes).toEqual({ 'jobs.provider': 'provider_b', 'jobs.outcome': 'ok', 'jobs.records': 4 });
  });

  it('records a failed step as an error and rethrows', async () => {
    await expect(inStageSpan('merge', {}, async () => Promise.reject(new Error('deadlock')))).rejects.toThrow(
      'deadlock',
    );
    const [failed] = exporter.getFinishedSpans();
    expect(failed!.status.code).toBe(2);
    expect(failed!.events.map((e) => e.name)).toContain('exception');
  });
});
