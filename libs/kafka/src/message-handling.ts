import { context, propagation, ROOT_CONTEXT, SpanKind, trace, type Tracer } from '@opentelemetry/api';
import type { EachMessagePayload } from 'kafkajs';
import { tolerantReaderOf } from '@jobs/contracts';
import { requestContext, type Logger } from '@jobs/observability';
import type { ProcessSpanFolds } from './process-span-folds.js';
import type { ConsumerMetrics } from './consumer-metrics.js';
import { decodeHeaders, MessageHeader, parseStages, type DecodedHeaders } from './headers.js';
import type { TopicSpec, ValueOf } from './topic.js';

/** Where the message came from, for handlers that need more than its value. */
export interface MessageMeta {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  headers: DecodedHeaders;
  /** Stable id of this message: the producer's x-message-id, else topic/partition/offset. */
  messageId: string;
  stages: string[];
}

/** A failure that no retry can cure: the message goes to the dead-letter topic at once. */
export class NonRetriableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NonRetriableError';
  }
}

/**
 * Bugs and broken data fail the same way every time; redelivering them would block their
 * partition forever. Anything else (a database, Redis or Kafka hiccup) is retried by kafkajs.
 */
export function isDeterministicFailure(error: unknown): boolean {
  return (
    error instanceof NonRetriableError ||
    refusedAsTooLarge(error) ||
    refusedAsData(error) ||
    error instanceof TypeError ||
    error instanceof RangeError ||
    error instanceof SyntaxError ||
    (error instanceof Error && error.name === 'ZodError')
  );
}

/**
 * The broker refused what the handler published as too large (MESSAGE_TOO_LARGE,
 * RECORD_LIST_TOO_LARGE): the same message would be refused again on every redelivery.
 */
function refusedAsTooLarge(error: unknown): boolean {
  const e = error as { name?: unknown; type?: unknown; code?: unknown } | null;
  return (
    e !== null &&
    typeof e === 'object' &&
    e.name === 'KafkaJSProtocolError' &&
    (e.type === 'MESSAGE_TOO_LARGE' || e.type === 'RECORD_LIST_TOO_LARGE' || e.code === 10 || e.code === 18)
  );
}

/**
 * PostgreSQL refused the data itself (SQLSTATE class 22, data exception: a NUL in text, a number
 * out of range, a malformed value; class 54, a limit exceeded: a value too large for its index):
 * the same message's data is refused on every redelivery. Read
 * from a pg error (`code`) or from Prisma's driver-adapter error (`meta.driverAdapterError.cause`),
 * however it was wrapped.
 */
function refusedAsData(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const e = queue.shift();
    if (e === null || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const { code, originalCode, severity, meta, cause } = e as Record<string, unknown>;
    const sqlState = typeof originalCode === 'string' ? originalCode : severity !== undefined ? code : undefined;
    if (typeof sqlState === 'string' && /^(?:22|54)[0-9A-Z]{3}$/.test(sqlState)) return true;
    const adapter = (meta as { driverAdapterError?: { cause?: unknown } } | undefined)?.driverAdapterError;
    queue.push(adapter?.cause, cause);
  }
  return false;
}

export type MessageHandler<T extends TopicSpec = TopicSpec> = (value: ValueOf<T>, meta: MessageMeta) => Promise<void>;

export interface DeadLetter {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: string;
  error: string;
  consumerGroup: string;
}

/**
 * How the error of a dead letter begins when the value broke its topic's contract (or was not
 * JSON): producers do not check what they send (TypedProducer), so this is where a producer's bug
 * shows; the test stack fails a run that left any (scripts/stack.mjs).
 */
export const OFF_CONTRACT = 'off-contract';

/** How a subscription takes its topic's messages. */
export interface SubscriptionOptions {
  /**
   * Decides from the message key alone, before the value is read, whether the handler wants the
   * message; one it does not want is passed over (its offset committed like a handled one's),
   * never parsed. For a consumer that acts on few of a topic's messages, each of them large.
   */
  wants?: (key: string | null) => boolean | Promise<boolean>;
}

export interface Subscription extends SubscriptionOptions {
  topic: TopicSpec;
  handler: MessageHandler;
}

/** What handling a message needs of its consumer. */
export interface MessageHandling {
  groupId: string;
  service: string;
  logger: Logger;
  deadLetter: (letter: DeadLetter) => Promise<void>;
  metrics: ConsumerMetrics;
  tracer: Tracer;
}

/**
 * One message through its subscription: passed over if unwanted, sent to the dead-letter topic
 * if off-contract or failing for good, else handled in its producer's trace and request context:
 * in the span it shares with the messages of its trace in hand (`spans`, which ends it), else in
 * a span of its own. A transient failure throws, so the message comes again.
 */
export async function handleMessage(
  subscription: Subscription,
  { topic, partition, message }: EachMessagePayload,
  on: MessageHandling,
  spans?: ProcessSpanFolds,
): Promise<void> {
  const startedAt = performance.now();
  const key = message.key?.toString('utf8') ?? null;
  // a failure to decide (e.g. the store it asks is away) throws: the message comes again
  if (subscription.wants && !(await subscription.wants(key)))
    return on.metrics.handled(topic, 'passed_over', startedAt);
  const headers = decodeHeaders(message.headers);
  const raw = message.value?.toString('utf8') ?? '';
  const meta: MessageMeta = {
    topic,
    partition,
    offset: message.offset,
    key,
    headers,
    messageId: headers[MessageHeader.MessageId] ?? `${topic}/${partition}/${message.offset}`,
    stages: parseStages(headers[MessageHeader.Stages]),
  };
  const deadLetter = async (error: unknown, reason: string, logLine: string): Promise<void> => {
    on.logger.error({ topic, partition, offset: message.offset, err: error }, logLine);
    await on.deadLetter({
      topic,
      partition,
      offset: message.offset,
      key,
      value: raw,
      error: reason,
      consumerGroup: on.groupId,
    });
    on.metrics.handled(topic, 'dead_lettered', startedAt);
  };

  let value: unknown;
  try {
    // a tolerant reader: fields of a later version are accepted and kept (tolerantReaderOf)
    value = tolerantReaderOf(subscription.topic.value).parse(JSON.parse(raw));
  } catch (error) {
    // the prefix marks a producer's bug apart from a handler's failure (`npm test` fails on any)
    return deadLetter(error, `${OFF_CONTRACT}: ${String(error)}`, 'off-contract message sent to dead letter');
  }

  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const options = {
    kind: SpanKind.CONSUMER,
    attributes: {
      'messaging.system': 'kafka',
      'messaging.destination.name': topic,
      'messaging.kafka.partition': partition,
      'messaging.consumer.group.name': on.groupId,
      'service.stage': on.service,
    },
  };
  const name = `${topic} process`;
  const folded = spans?.spanFor({ topic, partition, message }, name, options, parent);
  const span = folded?.span ?? on.tracer.startSpan(name, options, parent);
  const work = { requestId: headers[MessageHeader.RequestId] ?? meta.messageId, stages: meta.stages };
  try {
    await context.with(folded?.context ?? trace.setSpan(parent, span), () =>
      requestContext.run(work, () => subscription.handler(value as never, meta)),
    );
    on.metrics.handled(topic, 'ok', startedAt);
  } catch (error) {
    span.recordException(error as Error);
    if (isDeterministicFailure(error)) {
      return deadLetter(error, String(error), 'handler failed for good; message sent to dead letter');
    }
    on.metrics.handled(topic, 'retried', startedAt);
    on.logger.warn({ topic, partition, offset: message.offset, err: error }, 'handler failed; kafka will redeliver');
    throw error;
  } finally {
    if (!folded) span.end();
  }
}
