/**
 * Where a caller's trace context stops being trusted. On a port marked untrusted (the gateway's
 * public port), a request's `traceparent` does not become the parent of the server span: the
 * service starts a trace of its own and records the caller's span as a link, and the caller's
 * `baggage` is dropped. A client can then neither choose our trace ids (to join, pollute or
 * collide with other traces) nor hand values to every service downstream. Other ports (the admin
 * API, internal health ports) and Kafka headers, which only our own services write, continue
 * the trace as before.
 *
 * The HTTP instrumentation extracts the context with the global propagator before any of our
 * code sees the request; its `startIncomingSpanHook`, called just before, marks the headers of a
 * request that arrived on an untrusted port, and EdgePropagator reads the mark.
 */
import type { IncomingMessage } from 'node:http';
import {
  type Context,
  createContextKey,
  type Link,
  ROOT_CONTEXT,
  type SpanContext,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
  trace,
  type Attributes,
  type SpanKind,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { Sampler, SamplingResult, Span, SpanProcessor } from '@opentelemetry/sdk-trace';

// Global symbols: a service's bundle and the telemetry preload may hold two copies of this module.
const UNTRUSTED_PORTS = Symbol.for('jobs.observability.untrusted-trace-ports');
const UNTRUSTED_CARRIER = Symbol.for('jobs.observability.untrusted-trace-carrier');

/** The caller's span context, kept beside (not as) the parent of the span about to start. */
export const CALLER_SPAN_CONTEXT = createContextKey('jobs.caller-span-context');

function untrustedPorts(): Set<number> {
  const holder = globalThis as { [UNTRUSTED_PORTS]?: Set<number> };
  return (holder[UNTRUSTED_PORTS] ??= new Set<number>());
}

/** Requests arriving on this local port start their own trace and only link the caller's. */
export function distrustCallerTraceOn(port: number): void {
  if (port > 0) untrustedPorts().add(port);
}

/** For the HTTP instrumentation's startIncomingSpanHook: marks a request that came in on an untrusted port. */
export function markUntrustedTraceCarrier(request: IncomingMessage): void {
  const port = request.socket?.localPort;
  if (port !== undefined && untrustedPorts().has(port))
    (request.headers as Record<symbol, unknown>)[UNTRUSTED_CARRIER] = true;
}

function isUntrusted(carrier: unknown): boolean {
  return (
    typeof carrier === 'object' && carrier !== null && (carrier as Record<symbol, unknown>)[UNTRUSTED_CARRIER] === true
  );
}

/** Wraps the service's propagator: an untrusted carrier yields no parent and no baggage, only the caller to link. */
export class EdgePropagator implements TextMapPropagator {
  private readonly traceContext = new W3CTraceContextPropagator();

  constructor(private readonly inner: TextMapPropagator) {}

  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    this.inner.inject(context, carrier, setter);
  }

  extract(context: Context, carrier: unknown, getter: TextMapGetter): Context {
    if (!isUntrusted(carrier)) return this.inner.extract(context, carrier, getter);
    const caller = trace.getSpanContext(this.traceContext.extract(ROOT_CONTEXT, carrier, getter));
    return caller ? context.setValue(CALLER_SPAN_CONTEXT, caller) : context;
  }

  fields(): string[] {
    return this.inner.fields();
  }
}

const callerOfRoot = (context: Context): SpanContext | undefined =>
  trace.getSpanContext(context) ? undefined : (context.getValue(CALLER_SPAN_CONTEXT) as SpanContext | undefined);

/**
 * Samples a span that links a caller as the inner sampler would a child of that caller: a caller
 * that asks for its request to be traced (the sampled flag) still gets it traced, under our ids.
 */
export class CallerLinkSampler implements Sampler {
  constructor(private readonly inner: Sampler) {}

  shouldSample(
    context: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    const caller = callerOfRoot(context);
    const decisionContext = caller ? trace.setSpanContext(context, { ...caller, isRemote: true }) : context;
    return this.inner.shouldSample(decisionContext, traceId, name, kind, attributes, links);
  }

  toString(): string {
    return `CallerLinkSampler{${this.inner.toString()}}`;
  }
}

/** Adds the caller's span as a link to the root span that stands in for it. */
export class CallerLinkSpanProcessor implements SpanProcessor {
  onStart(span: Span, parentContext: Context): void {
    const caller = callerOfRoot(parentContext);
    if (caller) span.addLink({ context: caller, attributes: { 'jobs.link.reason': 'caller' } });
  }

  onEnd(): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
