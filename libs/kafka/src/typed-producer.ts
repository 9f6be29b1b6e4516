import { randomUUID } from 'node:crypto';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { CompressionTypes, Partitioners, type Kafka, type Message, type Producer } from 'kafkajs';
import { inActiveSpan, requestContext } from '@jobs/observability';
import { appendStage, MessageHeader } from './headers.js';
import type { TopicSpec, ValueOf } from './topic.js';
import { countPublished } from './consumer-metrics.js';

export interface PublishOptions {
  /** Overrides the request id of the current context (for work started outside a request). */
  requestId?: string;
  headers?: Record<string, string>;
}

export interface OutgoingMessage<T extends TopicSpec> {
  value: ValueOf<T>;
  options?: PublishOptions;
}

/**
 * Publishes contract-checked messages. Every message is validated against its topic's schema
 * (a mismatch is a bug in the producer, so it throws), keyed by the topology's key function,
 * and carries the request id, the stages so far and the W3C trace context.
 */
export class TypedProducer {
  private readonly producer: Producer;
  private connected = false;
  private readonly tracer = trace.getTracer('@jobs/kafka');

  constructor(
    kafka: Kafka,
    private readonly service: string,
  ) {
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 5,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
  }

  async connect(): Promise<void> {
    await this.producer.connect();
    this.connected = true;
  }

  async disconnect(): Promise<void> {
    if (!this.connected) return;
    this.connected = false;
    await this.producer.disconnect();
  }

  async publish<T extends TopicSpec>(topic: T, value: ValueOf<T>, options: PublishOptions = {}): Promise<void> {
    await this.publishMany(topic, [{ value, options }]);
  }

  async publishMany<T extends TopicSpec>(topic: T, messages: readonly OutgoingMessage<T>[]): Promise<void> {
    if (messages.length === 0) return;
    await this.inPublishSpan(topic.name, messages.length, () =>
      this.producer.send({
        topic: topic.name,
        acks: -1,
        compression: CompressionTypes.None,
        messages: messages.map((m) => this.toKafkaMessage(topic, m.value, m.options)),
      }),
    );
    countPublished(topic.name, messages.length);
  }

  /**
   * Runs `work` (which builds and sends or stages messages) inside a PRODUCER span, so the
   * messages' trace context names that span and each consumer's span becomes its child.
   */
  async inPublishSpan<R>(topic: string, count: number, work: () => Promise<R>, via: 'kafka' | 'outbox' = 'kafka'): Promise<R> {
    return inActiveSpan(
      this.tracer,
      `${topic} publish`,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'send',
          'messaging.destination.name': topic,
          'messaging.batch.message_count': count,
          'jobs.publish.via': via,
          'service.stage': this.service,
        },
      },
      work,
    );
  }

  /** Sends messages already built (and validated) elsewhere, e.g. by the outbox. */
  async sendRaw(topic: string, messages: Message[]): Promise<void> {
    if (messages.length === 0) return;
    await this.producer.send({ topic, acks: -1, messages });
    countPublished(topic, messages.length);
  }

  /** Builds the wire message; exposed so the outbox relay sends exactly what `publish` would. */
  toKafkaMessage<T extends TopicSpec>(topic: T, value: ValueOf<T>, options: PublishOptions = {}): Message {
    const parsed = topic.value.parse(value) as ValueOf<T>;
    return {
      key: topic.keyOf(parsed),
      value: JSON.stringify(parsed),
      headers: this.headersFor(options),
    };
  }

  headersFor(options: PublishOptions = {}): Record<string, string> {
    const ctx = requestContext.current();
    const headers: Record<string, string> = {
      ...options.headers,
      [MessageHeader.MessageId]: randomUUID(),
      [MessageHeader.Producer]: this.service,
      [MessageHeader.Stages]: appendStage(ctx?.stages ?? [], this.service).join(','),
    };
    const requestId = options.requestId ?? ctx?.requestId;
    if (requestId) headers[MessageHeader.RequestId] = requestId;
    propagation.inject(context.active(), headers);
    return headers;
  }
}
