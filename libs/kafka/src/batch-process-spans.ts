import type { Context, Span, SpanOptions, Tracer } from '@opentelemetry/api';
import type { KafkaMessage } from 'kafkajs';
import { MessageHeader } from './headers.js';

/**
 * The consumer spans of one fetched batch. The messages one producer span sent (the same
 * `traceparent`: a merge's job changes, a matcher's events) share one `<topic> process` span,
 * opened as the first of them is handled and ended once the last of them is done, with
 * `messaging.batch.message_count`; so a search that opens 200 jobs shows one span per stage,
 * not one per job. A message without a trace context has a span of its own.
 *
 * Every message of the batch is held before any is handled, and released exactly once: when it
 * is done, passed over, or left for a redelivery.
 */
export class BatchProcessSpans {
  private readonly folds = new Map<string, Fold>();
  private readonly held = new Map<string, string>();

  constructor(private readonly tracer: Tracer) {}

  /** Counts the batch's messages in, before the first is handled. */
  hold(messages: readonly KafkaMessage[]): this {
    for (const message of messages) {
      const key = foldKey(message);
      this.held.set(message.offset, key);
      const fold = this.folds.get(key);
      if (fold) fold.holders += 1;
      else this.folds.set(key, { holders: 1, handled: new Set(), span: null });
    }
    return this;
  }

  /**
   * The span a message is handled in (made by the first of its fold), to be ended by its
   * `release`.
   */
  spanFor(message: KafkaMessage, name: string, options: SpanOptions, parent: Context): Span {
    if (!this.held.has(message.offset)) this.hold([message]);
    const fold = this.folds.get(this.held.get(message.offset)!)!;
    fold.handled.add(message.offset);
    fold.span ??= this.tracer.startSpan(name, options, parent);
    return fold.span;
  }

  /** The message is done with (handled, passed over, or left to come again): its fold's span ends with its last. */
  release(message: KafkaMessage): void {
    const key = this.held.get(message.offset);
    if (key === undefined) return;
    this.held.delete(message.offset);
    const fold = this.folds.get(key)!;
    if (--fold.holders > 0) return;
    this.folds.delete(key);
    if (!fold.span) return;
    if (fold.handled.size > 1) fold.span.setAttribute('messaging.batch.message_count', fold.handled.size);
    fold.span.end();
  }

  /** Releases what is still held: the messages a stopped or failed batch did not get to. */
  releaseAll(messages: readonly KafkaMessage[]): void {
    for (const message of messages) this.release(message);
  }
}

interface Fold {
  /** Messages held and not yet released. */
  holders: number;
  /** The offsets of the messages handled in the span so far (a retried one counts once). */
  handled: Set<string>;
  span: Span | null;
}

function foldKey(message: KafkaMessage): string {
  const raw = message.headers?.[MessageHeader.TraceParent];
  const parent = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  // no trace context: nothing ties it to another message
  return parent ? `t:${parent.toString()}` : `o:${message.offset}`;
}
