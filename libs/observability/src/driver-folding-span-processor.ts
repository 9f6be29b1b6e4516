import type { Context } from '@opentelemetry/api';
import { trace } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace';

/**
 * The instrumentation scopes whose spans are driver calls: a stage makes dozens of them, and a
 * trace an SRE reads should show the stage, with how many calls it made and how long they took.
 * Each maps to the attribute prefix its calls are counted under.
 */
export const DRIVER_SCOPES: Readonly<Record<string, string>> = {
  '@opentelemetry/instrumentation-pg': 'jobs.db',
  prisma: 'jobs.db',
  '@prisma/instrumentation': 'jobs.db',
  '@opentelemetry/instrumentation-ioredis': 'jobs.redis',
};

/** A span being recorded and the span its driver calls are folded into (itself, unless it is one). */
interface Live {
  readonly span: Span;
  readonly target: Span;
  readonly prefix: string | undefined;
  readonly parent: Live | undefined;
  /**
   * Whether its own end is exported: a span that is not a driver call, and a driver call that a
   * step's span started under (a Prisma transaction whose callback stages an outbox message), so
   * that span keeps its parent.
   */
  exported: boolean;
}

/**
 * Folds driver calls (PostgreSQL, Prisma, Redis spans) into the span of the step that made them:
 * that span gets `<prefix>.calls` and `<prefix>.ms` (the calls' summed duration; calls under one
 * another, such as Prisma's operation and its SQL, count once, as the outermost) and the driver
 * spans themselves are not exported. A `max_coverage` search's trace then holds its stages and
 * steps (requests, Kafka hops, provider calls, merges) rather than every query under them, and
 * the exporters and the viewer handle a fraction of the spans.
 *
 * Wraps the exporting processors: a folded span never reaches them. A driver call whose target has
 * already ended (fire and forget) is dropped, as its count could no longer be added. A driver call
 * under which a step's span starts is kept, so no exported span names a parent that is not.
 */
export class DriverFoldingSpanProcessor implements SpanProcessor {
  private readonly live = new Map<string, Live>();

  constructor(
    private readonly exporting: SpanProcessor[],
    private readonly scopes: Readonly<Record<string, string>> = DRIVER_SCOPES,
  ) {}

  onStart(span: Span, parentContext: Context): void {
    if (!span.isRecording()) return;
    const prefix = this.scopes[span.instrumentationScope.name];
    const parentId = trace.getSpanContext(parentContext)?.spanId;
    const parent = parentId === undefined ? undefined : this.live.get(parentId);
    if (prefix === undefined) {
      this.live.set(span.spanContext().spanId, { span, target: span, prefix, parent, exported: true });
      for (let above = parent; above !== undefined && !above.exported; above = above.parent) above.exported = true;
      for (const processor of this.exporting) processor.onStart(span, parentContext);
      return;
    }
    // A driver call with no recorded step above it in this process stays a span of its own.
    const target = parent?.target ?? span;
    const nested = parent !== undefined && parent.prefix !== undefined;
    this.live.set(span.spanContext().spanId, {
      span,
      target,
      prefix: nested ? parent.prefix : prefix,
      parent,
      exported: target === span,
    });
    if (target === span) for (const processor of this.exporting) processor.onStart(span, parentContext);
  }

  /** Redaction (an inner processor) runs on what is exported only. */
  onEnding(span: Span): void {
    if (this.live.get(span.spanContext().spanId)?.exported === false) return;
    for (const processor of this.exporting) processor.onEnding?.(span);
  }

  onEnd(span: ReadableSpan): void {
    const spanId = span.spanContext().spanId;
    const entry = this.live.get(spanId);
    this.live.delete(spanId);
    if (entry === undefined || entry.exported) for (const processor of this.exporting) processor.onEnd(span);
    if (entry?.prefix === undefined) return;
    // Only the outermost driver call of a chain counts: its inner calls are within its duration.
    const { parent, target, prefix } = entry;
    if (parent?.prefix !== undefined && parent.span !== parent.target) return;
    if (target === entry.span || !target.isRecording()) return;
    const attributes = target.attributes;
    const calls = Number(attributes[`${prefix}.calls`] ?? 0) + 1;
    const ms = Number(attributes[`${prefix}.ms`] ?? 0) + span.duration[0] * 1e3 + span.duration[1] / 1e6;
    target.setAttribute(`${prefix}.calls`, calls);
    target.setAttribute(`${prefix}.ms`, Math.round(ms * 1000) / 1000);
  }

  async forceFlush(): Promise<void> {
    await Promise.all(this.exporting.map((processor) => processor.forceFlush()));
  }

  async shutdown(): Promise<void> {
    this.live.clear();
    await Promise.all(this.exporting.map((processor) => processor.shutdown()));
  }
}
