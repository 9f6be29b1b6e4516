import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { activeTraceparent, traceparentOf } from './traceparent.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';

describe('traceparentOf', () => {
  it('writes version 00, the ids and the sampled flag', () => {
    expect(traceparentOf({ traceId: TRACE, spanId: SPAN, traceFlags: TraceFlags.SAMPLED })).toBe(
      `00-${TRACE}-${SPAN}-01`,
    );
    expect(traceparentOf({ traceId: TRACE, spanId: SPAN, traceFlags: TraceFlags.NONE })).toBe(`00-${TRACE}-${SPAN}-00`);
  });

  it('gives nothing for a missing or invalid span context', () => {
    expect(traceparentOf(undefined)).toBeUndefined();
    expect(traceparentOf({ traceId: '0'.repeat(32), spanId: SPAN, traceFlags: TraceFlags.SAMPLED })).toBeUndefined();
  });

  it('reads the span of a context', () => {
    const ctx = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE, spanId: SPAN, traceFlags: TraceFlags.SAMPLED });
    expect(activeTraceparent(ctx)).toBe(`00-${TRACE}-${SPAN}-01`);
    expect(activeTraceparent(ROOT_CONTEXT)).toBeUndefined();
  });
});
