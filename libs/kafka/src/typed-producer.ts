import { randomUUID } from 'node:crypto';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { CompressionTypes, Partitioners, type Kafka, type Message, type Producer, type TopicMessages } from 'kafkajs';
import { inActiveSpan, requestContext } from '@jobs/observability';
import { appendStage, MessageHeader } from './headers.js';
import type { TopicSpec, ValueOf } from './topic.js';
import { countClientRequest, countProduceRequest, countPublished } from './consumer-metrics.js';
import { jsonBytes } from './json-bytes.js';
import { PublishSpanScope } from './publish-span-scope.js';

export interface PublishOptions {
  /** Overrides the request id of the current context (for work started outside a request). */
  requestId?: string;
  headers?: Record<string, string>;
}

export interface OutgoingMessage<T extends TopicSpec> {
  value: ValueOf<T>;
  options?: PublishOptions;
}

/** What one coalesced produce request carries at most (the broker's message.max.bytes is 1 MiB). */
export const COALESCE_MAX_BYTES = 256 * 1024;

/** A produce request: its messages by topic, and whether to compress them. */
export interface ProduceRequest {
  topicMessages: TopicMessages[];
  /**
   * Compressed (gzip) when it carries a message larger than COALESCE_MAX_BYTES, alone: the broker
   * bounds a partition's batch as sent, and a page of long descriptions (a job's text has no
   * bound) shrinks several times; small requests, nearly all, are sent as they are.
   */
  compress: boolean;
}

/**
 * A message's size for the coalescing limit. `publish` sends Buffers: their length is the bytes.
 * The outbox relay sends its rows' text (`sendRaw`): a string's UTF-16 length. Its UTF-8 bytes are
 * at most 3x that, which the 4x margin of COALESCE_MAX_BYTES under the broker's 1 MiB covers.
 */
const messageBytes = (m: Message): number => {
  const v = m.value;
  return v === null || v === undefined ? 0 : v.length;
};

/** One publish waiting for the producer's requests, with its caller waiting on it. */
interface Waiting {
  topic: string;
  messages: Message[];
  /** Its messages before this one are in a request already sent or out. */
  next: number;
  settle: (error?: unknown) => void;
}

/**
 * Sends through one kafkajs producer with at most one produce request in flight: what callers
 * publish while a request is out waits and goes with the next one, every topic in one
 * `sendBatch` (kafkajs has no linger). An idle producer sends at once (one event-loop turn
 * gathers what was published side by side), a busy one sends larger and fewer requests. The
 * order of what was published is the order sent, so one key's messages keep their order.
 *
 * A request carries at most COALESCE_MAX_BYTES (a message larger than that goes alone): the
 * broker refuses a partition's record batch over its message.max.bytes, and kafkajs puts all of
 * a request's messages for one partition in one batch, so a publish of many messages with one key
 * (a change matching hundreds of one account's watches) is split over several requests, in
 * order. Its caller is answered once every part is sent, or with the first part's failure.
 */
export class CoalescingSender {
  private waiting: Waiting[] = [];
  private inFlight = false;
  private scheduled = false;
  /** Produce requests sent and messages in them (for the specs and the benchmarks' reading). */
  readonly sent = { requests: 0, messages: 0 };

  constructor(private readonly sendBatch: (request: ProduceRequest) => Promise<unknown>) {}

  send(topic: string, messages: Message[]): Promise<void> {
    if (messages.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({
        topic,
        messages,
        next: 0,
        settle: (error) => (error === undefined ? resolve() : reject(error)),
      });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.inFlight || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.inFlight || this.waiting.length === 0) return;
    // one entry per topic, in the order first published; each topic's messages in publish order
    const byTopic = new Map<string, Message[]>();
    /** Publishes with messages in this request: their callers hear of its failure. */
    const inRequest: Waiting[] = [];
    let bytes = 0;
    let full = false;
    for (const w of this.waiting) {
      const from = w.next;
      while (w.next < w.messages.length) {
        const size = messageBytes(w.messages[w.next]!);
        if (bytes > 0 && bytes + size > COALESCE_MAX_BYTES) {
          full = true;
          break;
        }
        bytes += size;
        w.next += 1;
      }
      if (w.next > from) {
        inRequest.push(w);
        const part = w.messages.slice(from, w.next);
        const list = byTopic.get(w.topic);
        if (list) list.push(...part);
        else byTopic.set(w.topic, part);
      }
      if (full) break;
    }
    this.waiting = this.waiting.filter((w) => w.next < w.messages.length);
    this.inFlight = true;
    let failure: unknown;
    try {
      await this.sendBatch({
        topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
        compress: bytes > COALESCE_MAX_BYTES,
      });
      this.sent.requests += 1;
      countProduceRequest();
      for (const messages of byTopic.values()) this.sent.messages += messages.length;
    } catch (error) {
      failure = error ?? new Error('produce request failed');
    }
    this.inFlight = false;
    if (failure !== undefined) {
      // the rest of a publish split over requests is not sent after a part failed
      const failed = new Set(inRequest);
      this.waiting = this.waiting.filter((w) => !failed.has(w));
      for (const w of inRequest) w.settle(failure);
    } else for (const w of inRequest) if (w.next === w.messages.length) w.settle();
    this.schedule();
  }
}

/**
 * Publishes typed messages: each keyed by the topology's key function, carrying the request id,
 * the stages so far and the W3C trace context.
 *
 * The contract is checked once, where a message enters a service: `TypedConsumer` parses every
 * value against its topic's schema and sends an off-contract one to the dead letter. The producer
 * only serializes (its value is typed by the schema at compile time). Checking on both sides
 * would parse every message twice for one verdict; and a producer's check that failed inside a
 * handler would make the handler fail and come again, where the consumer's dead letter moves on.
 */
export class TypedProducer {
  private readonly producer: Producer;
  private connected = false;
  private readonly tracer = trace.getTracer('@jobs/kafka');
  private readonly sender: CoalescingSender;

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
    this.producer.on(this.producer.events.REQUEST, ({ payload }) => countClientRequest(payload.apiName));
    this.sender = new CoalescingSender(({ topicMessages, compress }) =>
      this.producer.sendBatch({
        topicMessages,
        acks: -1,
        compression: compress ? CompressionTypes.GZIP : CompressionTypes.None,
      }),
    );
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
    const built = await this.inPublishSpan(topic.name, messages.length, async () => {
      const wire = messages.map((m) => this.toKafkaMessage(topic, m.value, m.options));
      await this.sender.send(topic.name, wire);
      return wire;
    });
    countPublished(topic.name, built);
  }

  /**
   * Runs `work` (which builds and sends or stages messages) inside a PRODUCER span, so the
   * messages' trace context names that span and each consumer's span becomes its child.
   */
  async inPublishSpan<R>(
    topic: string,
    count: number,
    work: () => Promise<R>,
    via: 'kafka' | 'outbox' = 'kafka',
  ): Promise<R> {
    const name = `${topic} publish`;
    const options = {
      kind: SpanKind.PRODUCER,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.type': 'send',
        'messaging.destination.name': topic,
        'messaging.batch.message_count': count,
        'jobs.publish.via': via,
        'service.stage': this.service,
      },
    };
    // a folded process span's handlers share one publish span per topic
    const scope = PublishSpanScope.active();
    if (scope) return scope.run(`${topic}|${via}`, count, () => this.tracer.startSpan(name, options), work);
    return inActiveSpan(this.tracer, name, options, work);
  }

  /** Sends messages already built (and validated) elsewhere, e.g. by the outbox. */
  async sendRaw(topic: string, messages: Message[]): Promise<void> {
    if (messages.length === 0) return;
    await this.sender.send(topic, messages);
    countPublished(topic, messages);
  }

  /**
   * Builds the wire message (not checked here: see the class); exposed so the outbox relay sends exactly what `publish`
   * would.
   */
  toKafkaMessage<T extends TopicSpec>(topic: T, value: ValueOf<T>, options: PublishOptions = {}): Message {
    return {
      key: topic.keyOf(value),
      // in pieces: a whole wave or page through JSON.stringify runs V8's slow two-byte mode (jsonBytes)
      value: jsonBytes(value),
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
