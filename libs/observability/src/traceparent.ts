import { isSpanContextValid, trace, type Context, type SpanContext } from '@opentelemetry/api';

/**
 * The W3C `traceparent` value of a span context (version 00): trace id, span id and the sampled
 * flag. Undefined for an invalid context (no active span).
 */
export function traceparentOf(spanContext: SpanContext | undefined): string | undefined {
  if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}

/** The `traceparent` of the span active in `ctx` (the current context by default). */
export function activeTraceparent(ctx?: Context): string | undefined {
  const span = ctx ? trace.getSpan(ctx) : trace.getActiveSpan();
  return traceparentOf(span?.spanContext());
}
