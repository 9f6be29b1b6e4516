import { context, createContextKey, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';

const SCOPE = createContextKey('@jobs/kafka publish span scope');

/**
 * The publish spans of one folded process span (ProcessSpanFolds): what its messages' handlers
 * publish to one topic goes under one `<topic> publish` span, begun by the first publish and
 * ended with the fold, its `messaging.batch.message_count` the sum. So a stage that handles 200
 * job changes and publishes an event for each shows one publish span, not 200.
 */
export class PublishSpanScope {
  private readonly spans = new Map<string, { span: Span; messages: number }>();
  private ended = false;

  /**
   * The scope of the active context, if its work runs in a folded process span that has not
   * ended: work a handler left running past its fold publishes under a span of its own, not one
   * nothing would end.
   */
  static active(): PublishSpanScope | undefined {
    const scope = context.active().getValue(SCOPE) as PublishSpanScope | undefined;
    return scope?.ended ? undefined : scope;
  }

  /** `ctx` with this scope in it. */
  within(ctx: Context): Context {
    return ctx.setValue(SCOPE, this);
  }

  /** Runs `work` in the scope's span for `key` (started by `start` the first time), counting `count` messages. */
  async run<R>(key: string, count: number, start: () => Span, work: () => Promise<R>): Promise<R> {
    let entry = this.spans.get(key);
    if (!entry) this.spans.set(key, (entry = { span: start(), messages: 0 }));
    entry.messages += count;
    const { span } = entry;
    try {
      return await context.with(trace.setSpan(context.active(), span), work);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    }
  }

  /** Ends the scope's spans (its fold ends). */
  end(): void {
    this.ended = true;
    for (const { span, messages } of this.spans.values()) {
      span.setAttribute('messaging.batch.message_count', messages);
      span.end();
    }
    this.spans.clear();
  }
}
