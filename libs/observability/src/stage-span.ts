import {
  SpanStatusCode,
  trace,
  type AttributeValue,
  type Span,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';

export type StageAttributes = Record<string, AttributeValue | null | undefined>;

const tracer = trace.getTracer('@jobs/stages');

function prefixed(attributes: StageAttributes): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) out[`jobs.${name}`] = value;
  }
  return out;
}

/**
 * Adds domain attributes (strategy, provider, counts, credits; `jobs.` prefixed) to the span of
 * the stage in progress: the consumer span of the message being handled, or the request's server
 * span in the gateway. A no-op outside a span.
 */
export function annotateStage(attributes: StageAttributes): void {
  trace.getActiveSpan()?.setAttributes(prefixed(attributes));
}

/**
 * Runs `work` in a child span of the stage, for a step worth seeing on its own in a trace (a
 * provider call, a merge transaction). `work` may add attributes through the span it receives.
 */
export async function inStageSpan<R>(
  name: string,
  attributes: StageAttributes,
  work: (annotate: (more: StageAttributes) => void) => Promise<R>,
): Promise<R> {
  return inActiveSpan(tracer, name, { attributes: prefixed(attributes) }, (span) =>
    work((more) => span.setAttributes(prefixed(more))),
  );
}

/** `work` in a new active span that ends with it; a failure is recorded on the span and rethrown. */
export async function inActiveSpan<R>(
  spanTracer: Tracer,
  name: string,
  options: SpanOptions,
  work: (span: Span) => Promise<R>,
): Promise<R> {
  return spanTracer.startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
