import { ROOT_CONTEXT, SpanKind, trace, TraceFlags, type Context } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace';
import { RequestsKeptSampler } from './requests-kept-sampler.js';

const under = (traceFlags: TraceFlags, isRemote: boolean): Context =>
  trace.setSpanContext(ROOT_CONTEXT, { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags, isRemote });

// Trace ids that fall under and over a 1 % ratio (TraceIdRatioBased folds the id's four 32-bit words by XOR).
const LOW_ID = '0'.repeat(31) + '1';
const HIGH_ID = 'f'.repeat(8) + '0'.repeat(24);

describe('RequestsKeptSampler', () => {
  const sampler = new RequestsKeptSampler(0.01);
  const decide = (context: Context, kind: SpanKind, traceId = HIGH_ID) =>
    sampler.shouldSample(context, traceId, 'span', kind, {}, []).decision;

  it('records every request that starts a trace, whatever its trace id', () => {
    expect(decide(ROOT_CONTEXT, SpanKind.SERVER, HIGH_ID)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(ROOT_CONTEXT, SpanKind.SERVER, LOW_ID)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
  });

  it('records work that starts on its own at the background ratio, by trace id', () => {
    for (const kind of [SpanKind.INTERNAL, SpanKind.PRODUCER, SpanKind.CONSUMER, SpanKind.CLIENT]) {
      expect(decide(ROOT_CONTEXT, kind, LOW_ID)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
      expect(decide(ROOT_CONTEXT, kind, HIGH_ID)).toBe(SamplingDecision.NOT_RECORD);
    }
  });

  it("follows a parent's decision, local or remote, server spans included: a trace is whole or absent", () => {
    for (const isRemote of [true, false]) {
      for (const kind of [SpanKind.SERVER, SpanKind.CONSUMER, SpanKind.INTERNAL]) {
        expect(decide(under(TraceFlags.SAMPLED, isRemote), kind, HIGH_ID)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
        expect(decide(under(TraceFlags.NONE, isRemote), kind, LOW_ID)).toBe(SamplingDecision.NOT_RECORD);
      }
    }
  });

  it('names its ratio', () => {
    expect(sampler.toString()).toBe('RequestsKept{background=0.01}');
  });
});
