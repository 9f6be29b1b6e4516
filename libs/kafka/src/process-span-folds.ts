import { trace, type Context, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';
import type { KafkaMessage } from 'kafkajs';
import { MessageHeader } from './headers.js';
import { PublishSpanScope } from './publish-span-scope.js';

/** A fold's links to the producer spans of its messages beyond the first (its parent). */
const MAX_LINKS = 32;
/** A fold takes new messages this long, so a trace that never pauses still shows spans that end. */
const FOLD_OPEN_MS = 5_000;
/** How long a fold waits, once its messages are done, for more of its trace (the next fetch's). */
export const FOLD_LINGER_MS = 100;

/** A message of a fetched batch, as the consumer holds it. */
export interface HeldMessage {
  topic: string;
  partition: number;
  message: KafkaMessage;
}

/** The span a message is handled in, and the context its handler runs in. */
export interface FoldedSpan {
  span: Span;
  context: Context;
}

/**
 * The `<topic> process` spans of one consumer. The messages of one trace that the consumer
 * handles together or in quick succession (a merge's job changes, a matcher's events: one batch,
 * batches of other partitions, the next fetch's within 100 ms) share one span, opened as the
 * first is handled and ended once the last is done. It is the child of the first message's
 * producer span and links the others' (up to 32), and carries `messaging.batch.message_count`;
 * what its handlers publish to one topic shares one publish span (PublishSpanScope). So a search
 * that opens 200 jobs shows a few spans per stage, not 200. A message without a trace context
 * has a span of its own.
 *
 * Every message of a batch is held before any is handled, and released exactly once: when it is
 * done, passed over, or left for a redelivery. A fold takes new messages for 5 s, then the
 * trace's next messages start another.
 */
export class ProcessSpanFolds {
  /** The fold that new messages of a topic and trace join. */
  private readonly open = new Map<string, Fold>();
  /** The fold of each held message, by `topic|partition|offset`. */
  private readonly held = new Map<string, Fold>();

  constructor(
    private readonly tracer: Tracer,
    private readonly lingerMs = FOLD_LINGER_MS,
  ) {}

  /** Counts a batch's messages in, before the first is handled. */
  hold(messages: readonly HeldMessage[]): void {
    const now = Date.now();
    for (const m of messages) {
      const id = idOf(m);
      if (this.held.has(id)) continue;
      const key = foldKey(m);
      let fold = this.open.get(key);
      if (!fold || now - fold.openedAt > FOLD_OPEN_MS) {
        fold = { key, openedAt: now, holders: 0, handled: new Set(), span: null, parents: new Set(), linger: null };
        this.open.set(key, fold);
      }
      fold.holders += 1;
      clearTimeout(fold.linger ?? undefined);
      fold.linger = null;
      this.held.set(id, fold);
    }
  }

  /** The span a message is handled in (made by the first of its fold), to be ended after its `release`. */
  spanFor(m: HeldMessage, name: string, options: SpanOptions, parent: Context): FoldedSpan {
    this.hold([m]);
    const fold = this.held.get(idOf(m))!;
    fold.handled.add(idOf(m));
    const producer = trace.getSpanContext(parent);
    if (!fold.span) {
      const span = this.tracer.startSpan(name, options, parent);
      fold.span = { span, scope: new PublishSpanScope() };
      if (producer) fold.parents.add(producer.spanId);
    } else if (producer && !fold.parents.has(producer.spanId) && fold.parents.size <= MAX_LINKS) {
      fold.parents.add(producer.spanId);
      fold.span.span.addLink({ context: producer });
    }
    const { span, scope } = fold.span;
    return { span, context: scope.within(trace.setSpan(parent, span)) };
  }

  /** The messages are done with (handled, passed over, or left to come again). */
  release(messages: readonly HeldMessage[]): void {
    for (const m of messages) {
      const id = idOf(m);
      const fold = this.held.get(id);
      if (!fold) continue;
      this.held.delete(id);
      if (--fold.holders > 0) continue;
      if (this.lingerMs <= 0 || this.open.get(fold.key) !== fold) this.end(fold);
      else {
        fold.linger = setTimeout(() => this.end(fold), this.lingerMs);
        fold.linger.unref();
      }
    }
  }

  /** Ends every fold whose messages are done (the consumer stops). */
  flush(): void {
    for (const fold of [...this.open.values()]) if (fold.holders === 0) this.end(fold);
  }

  private end(fold: Fold): void {
    clearTimeout(fold.linger ?? undefined);
    fold.linger = null;
    if (this.open.get(fold.key) === fold) this.open.delete(fold.key);
    if (!fold.span) return;
    const { span, scope } = fold.span;
    fold.span = null;
    scope.end();
    if (fold.handled.size > 1) span.setAttribute('messaging.batch.message_count', fold.handled.size);
    span.end();
  }
}

interface Fold {
  key: string;
  openedAt: number;
  /** Messages held and not yet released. */
  holders: number;
  /** The messages handled in the span so far (a retried one counts once). */
  handled: Set<string>;
  span: { span: Span; scope: PublishSpanScope } | null;
  /** The producer spans already the parent or a link. */
  parents: Set<string>;
  /** Set while the fold waits for more of its trace. */
  linger: NodeJS.Timeout | null;
}

const idOf = (m: HeldMessage) => `${m.topic}|${m.partition}|${m.message.offset}`;

/** `topic|trace id`, from the W3C traceparent (`00-<trace id>-<span id>-<flags>`). */
function foldKey(m: HeldMessage): string {
  const raw = m.message.headers?.[MessageHeader.TraceParent];
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  const traceId = value?.toString().split('-')[1];
  // no trace context: nothing ties it to another message
  return traceId ? `${m.topic}|t:${traceId}` : `${m.topic}|m:${m.partition}|${m.message.offset}`;
}
