import type { IncomingMessage } from 'node:http';
import { defaultTextMapGetter, propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AlwaysOffSampler,
  InMemorySpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import {
  CallerLinkSampler,
  CallerLinkSpanProcessor,
  distrustCallerTraceOn,
  EdgePropagator,
  markUntrustedTraceCarrier,
} from './trace-edge.js';

const PUBLIC_PORT = 47_080;
const ADMIN_PORT = 47_081;
const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';

describe('the trace edge', () => {
  const exporter = new InMemorySpanExporter();
  // the test stack's sampler: only traces a caller asks for are recorded
  const provider = new TracerProvider({
    sampler: new CallerLinkSampler(new ParentBasedSampler({ root: new AlwaysOffSampler() })),
    spanProcessors: [new CallerLinkSpanProcessor(), new SimpleSpanProcessor({ exporter })],
  });
  const propagator = new EdgePropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  distrustCallerTraceOn(PUBLIC_PORT);

  afterEach(() => exporter.reset());

  /** What the HTTP instrumentation does with a request: the hook, then extract, then the server span. */
  function serve(port: number, flags = '01') {
    const headers = { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-${flags}`, baggage: 'tenant=acc_victim' };
    markUntrustedTraceCarrier({ socket: { localPort: port }, headers } as unknown as IncomingMessage);
    const context = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
    const span = provider.getTracer('test').startSpan('POST /v1/jobs/search', {}, context);
    span.end();
    return { span, baggage: propagation.getBaggage(context) };
  }

  const finished = async () => {
    await provider.forceFlush();
    return exporter.getFinishedSpans();
  };

  it('on an untrusted port starts its own trace, links the caller and drops its baggage', async () => {
    const { span, baggage } = serve(PUBLIC_PORT);
    expect(span.spanContext().traceId).not.toBe(CALLER_TRACE);
    expect(baggage).toBeUndefined();
    const [exported] = await finished();
    expect(exported?.parentSpanContext).toBeUndefined();
    expect(exported?.links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([[CALLER_TRACE, CALLER_SPAN]]);
  });

  it('records the new trace when the caller asked for its own to be sampled, and not otherwise', () => {
    expect(serve(PUBLIC_PORT, '01').span.spanContext().traceFlags & TraceFlags.SAMPLED).toBe(TraceFlags.SAMPLED);
    expect(serve(PUBLIC_PORT, '00').span.isRecording()).toBe(false);
  });

  it('continues the caller trace, baggage included, on any other port', async () => {
    const { span, baggage } = serve(ADMIN_PORT);
    expect(span.spanContext().traceId).toBe(CALLER_TRACE);
    expect(baggage?.getEntry('tenant')?.value).toBe('acc_victim');
    const [exported] = await finished();
    expect(exported?.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(exported?.links).toEqual([]);
  });

  it('links only the root: a child of the new span continues it', async () => {
    const headers = { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` };
    markUntrustedTraceCarrier({ socket: { localPort: PUBLIC_PORT }, headers } as unknown as IncomingMessage);
    const context = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
    const tracer = provider.getTracer('test');
    const root = tracer.startSpan('root', {}, context);
    const child = tracer.startSpan('child', {}, trace.setSpan(context, root));
    child.end();
    root.end();
    const spans = await finished();
    expect(spans.find((s) => s.name === 'child')?.links).toEqual([]);
    expect(spans.find((s) => s.name === 'child')?.spanContext().traceId).toBe(root.spanContext().traceId);
  });
});
