import { context, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import type { Consumer, EachBatchPayload, EachMessagePayload, Kafka } from 'kafkajs';
import { requestContext, type Logger } from '@jobs/observability';
import { decodeHeaders, MessageHeader, parseStages, type DecodedHeaders } from './headers.js';
import type { TopicSpec, ValueOf } from './topic.js';
import { ConsumerMetrics } from './consumer-metrics.js';

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
  return error instanceof NonRetriableError || error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError || (error instanceof Error && error.name === 'ZodError');
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

export interface TopicConsumerSettings {
  groupId: string;
  service: string;
  /**
   * The replica's stable name (INSTANCE_ID): the member joins as a static member (KIP-345), so
   * a process restarted under the same name takes its old place and partitions at once instead
   * of waiting for the dead member's session to expire. Unique per replica within the group.
   */
  groupInstanceId?: string;
  logger: Logger;
  /** Gets messages that can never be processed (unparseable, off-contract). */
  deadLetter: (letter: DeadLetter) => Promise<void>;
  /** Where a brand-new group starts; reply listeners start at the end. */
  fromBeginning?: boolean;
  partitionsConsumedConcurrently?: number;
  /**
   * Handle up to this many messages of one partition at once (a fetched batch in parallel,
   * offsets committed when the whole batch is done). For I/O-bound handlers whose messages need
   * no order among themselves, such as the provider calls of one search. Default 1: in order.
   */
  concurrencyWithinPartition?: number;
}

/**
 * The member's session and how often it shows it is alive. kafkajs heartbeats only from its
 * fetch loop, between messages; the keep-alive below heartbeats while handlers run too, so the
 * session bounds the event loop's stalls (GC, a starved 2-core machine), not a handler's length.
 * A restarted replica does not wait for it (static membership); only a member that is gone for
 * good (or runs without INSTANCE_ID) holds its partitions this long.
 */
export const CONSUMER_SESSION_TIMEOUT_MS = 15_000;
export const CONSUMER_HEARTBEAT_INTERVAL_MS = 3_000;

/** Kafka accepts [a-zA-Z0-9._-] in a group.instance.id (as in a topic name), at most 249 characters. */
export function groupInstanceIdOf(replica: string): string {
  return replica.replace(/[^a-zA-Z0-9._-]/g, '_').slice(0, 249);
}

interface Subscription {
  topic: TopicSpec;
  handler: MessageHandler;
}

/**
 * One consumer group member over the declared topics. Off-contract messages go to the
 * dead-letter topic and are skipped; a handler that throws is retried by kafkajs (the offset
 * is not committed), so a transient failure never drops a message.
 */
export class TopicConsumer {
  private readonly consumer: Consumer;
  private readonly subscriptions = new Map<string, Subscription>();
  private joined = false;
  private running = false;
  private readonly tracer = trace.getTracer('@jobs/kafka');
  private readonly metrics: ConsumerMetrics;
  /** Handlers running now, and the heartbeat of the batch they came in: kept alive while > 0. */
  private handling = 0;
  private heartbeat: (() => Promise<void>) | undefined;
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    kafka: Kafka,
    private readonly settings: TopicConsumerSettings,
  ) {
    this.consumer = kafka.consumer({
      groupId: settings.groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: CONSUMER_SESSION_TIMEOUT_MS,
      heartbeatInterval: CONSUMER_HEARTBEAT_INTERVAL_MS,
      ...(settings.groupInstanceId ? { groupInstanceId: groupInstanceIdOf(settings.groupInstanceId) } : {}),
      // Bounds how long an idle fetch (and so a graceful stop) waits; new messages return at once.
      maxWaitTimeInMs: 1000,
      retry: { initialRetryTime: 300, retries: 8, maxRetryTime: 10000 },
    });
    const { GROUP_JOIN, CRASH, STOP, DISCONNECT } = this.consumer.events;
    this.metrics = new ConsumerMetrics(settings.groupId);
    this.consumer.on(GROUP_JOIN, () => {
      this.joined = true;
    });
    this.consumer.on(CRASH, (event) => {
      this.joined = false;
      const { error, restart } = event.payload;
      // A crash kafkajs recovers from (restart) is a warning; one it does not is an error.
      settings.logger[restart ? 'warn' : 'error']({ err: error, restart }, restart ? 'kafka consumer restarting' : 'kafka consumer stopped');
    });
    this.consumer.on(STOP, () => {
      this.joined = false;
    });
    this.consumer.on(DISCONNECT, () => {
      this.joined = false;
    });
  }

  on<T extends TopicSpec>(topic: T, handler: MessageHandler<T>): this {
    if (this.running) throw new Error('subscribe before start()');
    this.subscriptions.set(topic.name, { topic, handler: handler as MessageHandler });
    return this;
  }

  get topics(): string[] {
    return [...this.subscriptions.keys()];
  }

  /** True while the member is in its group and fetching. */
  isReady(): boolean {
    return this.running && this.joined;
  }

  async start(): Promise<void> {
    if (this.subscriptions.size === 0) return;
    this.metrics.watch(this.consumer);
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.topics, fromBeginning: this.settings.fromBeginning ?? true });
    this.running = true;
    this.keepAlive = setInterval(() => this.keepSessionAlive(), CONSUMER_HEARTBEAT_INTERVAL_MS);
    this.keepAlive.unref();
    const within = this.settings.concurrencyWithinPartition ?? 1;
    await this.consumer.run({
      autoCommit: true,
      partitionsConsumedConcurrently: this.settings.partitionsConsumedConcurrently ?? 4,
      ...(within > 1
        ? { eachBatchAutoResolve: false, eachBatch: (payload: EachBatchPayload) => this.dispatchBatch(payload, within) }
        : { eachMessage: (payload: EachMessagePayload) => this.dispatch(payload) }),
    });
  }

  /**
   * Runs a batch's messages `limit` at a time; an offset is resolved only once every message up
   * to it is done, so a crash or a failure redelivers what was not finished (at least once).
   */
  private async dispatchBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload, limit: number): Promise<void> {
    const messages = batch.messages;
    for (let start = 0; start < messages.length; start += limit) {
      if (!isRunning() || isStale()) return;
      const slice = messages.slice(start, start + limit);
      await Promise.all(slice.map((message) => this.dispatch({ topic: batch.topic, partition: batch.partition, message, heartbeat, pause: () => () => undefined })));
      resolveOffset(slice[slice.length - 1]!.offset);
      await heartbeat();
    }
  }

  /** Stops fetching, lets in-flight handlers finish, commits their offsets and leaves the group. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.keepAlive);
    await this.consumer.disconnect();
    this.metrics.unwatch();
  }

  /**
   * A heartbeat while a handler runs (kafkajs limits it to one per interval). A refusal (a
   * rebalance under way) is left to kafkajs: its own heartbeat after the handler sees it too.
   */
  private keepSessionAlive(): void {
    if (this.handling > 0 && this.running) void this.heartbeat?.().catch(() => undefined);
  }

  private async dispatch(payload: EachMessagePayload): Promise<void> {
    this.handling++;
    this.heartbeat = payload.heartbeat;
    try {
      await this.handle(payload);
    } finally {
      this.handling--;
    }
  }

  private async handle({ topic, partition, message }: EachMessagePayload): Promise<void> {
    const subscription = this.subscriptions.get(topic);
    if (!subscription) return;
    const startedAt = performance.now();
    const headers = decodeHeaders(message.headers);
    const key = message.key?.toString('utf8') ?? null;
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

    let value: unknown;
    try {
      value = subscription.topic.value.parse(JSON.parse(raw));
    } catch (error) {
      this.settings.logger.error({ topic, partition, offset: message.offset, err: error }, 'off-contract message sent to dead letter');
      await this.settings.deadLetter({ topic, partition, offset: message.offset, key, value: raw, error: String(error), consumerGroup: this.settings.groupId });
      this.metrics.handled(topic, 'dead_lettered', startedAt);
      return;
    }

    const parent = propagation.extract(ROOT_CONTEXT, headers);
    const span = this.tracer.startSpan(
      `${topic} process`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.destination.name': topic,
          'messaging.kafka.partition': partition,
          'messaging.consumer.group.name': this.settings.groupId,
          'service.stage': this.settings.service,
        },
      },
      parent,
    );
    const work = { requestId: headers[MessageHeader.RequestId] ?? meta.messageId, stages: meta.stages };
    try {
      await context.with(trace.setSpan(parent, span), () =>
        requestContext.run(work, () => subscription.handler(value as never, meta)),
      );
      this.metrics.handled(topic, 'ok', startedAt);
    } catch (error) {
      span.recordException(error as Error);
      if (isDeterministicFailure(error)) {
        this.settings.logger.error({ topic, partition, offset: message.offset, err: error }, 'handler failed for good; message sent to dead letter');
        await this.settings.deadLetter({ topic, partition, offset: message.offset, key, value: raw, error: String(error), consumerGroup: this.settings.groupId });
        this.metrics.handled(topic, 'dead_lettered', startedAt);
        return;
      }
      this.metrics.handled(topic, 'retried', startedAt);
      this.settings.logger.warn({ topic, partition, offset: message.offset, err: error }, 'handler failed; kafka will redeliver');
      throw error;
    } finally {
      span.end();
    }
  }
}
