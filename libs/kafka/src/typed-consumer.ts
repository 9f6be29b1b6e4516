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
   * Handle up to this many messages of one partition at once (a fetched batch in parallel, an
   * offset resolved once every message up to it is done, its commit lingered). For I/O-bound
   * handlers whose messages need no order among themselves, such as the provider calls of one
   * search. Default 1: in order.
   */
  concurrencyWithinPartition?: number;
  /**
   * Handle messages apart from the fetch loop, up to this many at once over all the member's
   * partitions, in no order. kafkajs fetches again only once every batch of its last fetch is
   * handled, so one slow handler (a provider call of half a second) would hold every partition of
   * the member that long; here a message is taken and the fetch goes on at once. Offsets are
   * committed as handlers finish, never past one still running or failing (a failure is retried
   * with backoff in place), so a crash or a rebalance redelivers exactly what was not done (at
   * least once). For I/O-bound handlers whose messages need no order among themselves.
   */
  detachedInFlight?: number;
  /** How long a handled message's offset may wait to be committed with the ones after it (COMMIT_LINGER_MS). */
  commitLingerMs?: number;
}

/**
 * How long a handled message's offset waits to go out with the offsets handled after it: one
 * OffsetCommit per member per linger, not one per message (kafkajs commits after every batch,
 * whatever autoCommitInterval says, and at a few messages a batch that was a commit per message:
 * a request and an append to __consumer_offsets each, about ten per sync search). The price is
 * the at-least-once window: a member killed outright redelivers what it handled in its last
 * linger (handlers are idempotent for exactly that window already); a stop, a rebalance or a
 * failing handler sends what waits first.
 */
export const COMMIT_LINGER_MS = 250;

/**
 * How the error of a dead letter begins when the value broke its topic's contract (or was not
 * JSON): producers do not check what they send (TypedProducer), so this is where a producer's bug
 * shows; the test stack fails a run that left any (scripts/stack.mjs).
 */
export const OFF_CONTRACT = 'off-contract';

interface WaitingCommit {
  topic: string;
  partition: number;
  offset: string;
  /** The detached partition's progress, told once the commit is through. */
  progress?: PartitionProgress;
}

/** Retries of a failed detached handler: 300 ms doubling to 10 s, while the member owns the partition. */
const DETACHED_RETRY_FIRST_MS = 300;
const DETACHED_RETRY_MAX_MS = 10_000;

/**
 * The offsets of one partition taken by a detached member and not yet committed: the committable
 * offset is the lowest one still running (or one past the highest done when none runs).
 */
export class PartitionProgress {
  private readonly running = new Set<bigint>();
  private highestDone: bigint | undefined;
  private committed: bigint | undefined;

  start(offset: string): void {
    const at = BigInt(offset);
    this.running.add(at);
    // the group's position is at most the first offset fetched: committing it again says nothing
    if (this.committed === undefined) this.committed = at;
  }

  finish(offset: string): void {
    const done = BigInt(offset);
    this.running.delete(done);
    if (this.highestDone === undefined || done > this.highestDone) this.highestDone = done;
  }

  /** The next offset to commit (Kafka's "next to read"), when it moved since the last commit. */
  commitable(): string | undefined {
    let next: bigint | undefined;
    if (this.running.size > 0) {
      let lowest: bigint | undefined;
      for (const offset of this.running) if (lowest === undefined || offset < lowest) lowest = offset;
      next = lowest;
    } else if (this.highestDone !== undefined) next = this.highestDone + 1n;
    if (next === undefined || (this.committed !== undefined && next <= this.committed)) return undefined;
    return String(next);
  }

  committedAt(offset: string): void {
    const at = BigInt(offset);
    if (this.committed === undefined || at > this.committed) this.committed = at;
  }

  get idle(): boolean {
    return this.running.size === 0;
  }
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

/** How a subscription takes its topic's messages. */
export interface SubscriptionOptions {
  /**
   * Decides from the message key alone, before the value is read, whether the handler wants the
   * message; one it does not want is passed over (its offset committed like a handled one's),
   * never parsed. For a consumer that acts on few of a topic's messages, each of them large.
   */
  wants?: (key: string | null) => boolean | Promise<boolean>;
}

interface Subscription extends SubscriptionOptions {
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
  /** Detached handlers running now (detachedInFlight), and each partition's progress. */
  private readonly detached = new Set<Promise<void>>();
  private readonly progress = new Map<string, PartitionProgress>();
  /** Offsets waiting for the next commit request (the latest per partition), and the one out now. */
  private readonly commitsWaiting = new Map<string, WaitingCommit>();
  private committing: Promise<void> | undefined;
  private commitTimer: NodeJS.Timeout | undefined;

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
      // a new assignment: what this member knew of partitions it no longer works on is stale
      for (const [key, progress] of this.progress) if (progress.idle) this.progress.delete(key);
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

  on<T extends TopicSpec>(topic: T, handler: MessageHandler<T>, options: SubscriptionOptions = {}): this {
    if (this.running) throw new Error('subscribe before start()');
    this.subscriptions.set(topic.name, { ...options, topic, handler: handler as MessageHandler });
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
    const detached = this.settings.detachedInFlight ?? 0;
    // offsets are committed here (lingered), never by kafkajs
    await this.consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: this.settings.partitionsConsumedConcurrently ?? 4,
      eachBatchAutoResolve: false,
      eachBatch: (payload: EachBatchPayload) => (detached > 0 ? this.takeBatch(payload, detached) : this.dispatchBatch(payload, within)),
    });
  }

  /**
   * Runs a batch's messages `limit` at a time (1: in order); an offset is resolved only once
   * every message up to it is done, so a crash or a failure redelivers what was not finished (at
   * least once). Its commit lingers; a failure (a handler's, or a heartbeat refused by a
   * rebalance) and a stop send what waits before kafkajs retries, rejoins or leaves.
   */
  private async dispatchBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload, limit: number): Promise<void> {
    const messages = batch.messages;
    try {
      for (let start = 0; start < messages.length; start += limit) {
        if (!isRunning() || isStale()) break;
        const slice = messages.slice(start, start + limit);
        await Promise.all(slice.map((message) => this.dispatch({ topic: batch.topic, partition: batch.partition, message, heartbeat, pause: () => () => undefined })));
        const last = slice[slice.length - 1]!.offset;
        resolveOffset(last);
        void this.queueCommit({ topic: batch.topic, partition: batch.partition, offset: String(BigInt(last) + 1n) });
        await heartbeat();
      }
    } catch (error) {
      await this.flushCommits();
      throw error;
    }
    if (!isRunning() || !this.running) await this.flushCommits();
  }

  /**
   * Detached handling: takes a batch's messages as room allows (at most `limit` handlers of
   * this member at once), moves the fetch position past each at once and returns, so the next
   * fetch does not wait for the handlers; each partition's offset is committed as its handlers
   * finish.
   */
  private async takeBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload, limit: number): Promise<void> {
    const key = `${batch.topic}|${batch.partition}`;
    for (const message of batch.messages) {
      while (this.detached.size >= limit) await Promise.race(this.detached);
      if (!isRunning() || isStale() || !this.running) return;
      let progress = this.progress.get(key);
      if (!progress) this.progress.set(key, (progress = new PartitionProgress()));
      progress.start(message.offset);
      resolveOffset(message.offset);
      const payload = { topic: batch.topic, partition: batch.partition, message, heartbeat, pause: () => () => undefined };
      const done: Promise<void> = this.handleDetached(payload, progress, isRunning).finally(() => {
        this.detached.delete(done);
      });
      this.detached.add(done);
    }
  }

  /** Runs one detached handler to success (retrying a transient failure in place), then commits what is done. */
  private async handleDetached(payload: EachMessagePayload, progress: PartitionProgress, isRunning: () => boolean): Promise<void> {
    for (let delay = DETACHED_RETRY_FIRST_MS; ; delay = Math.min(delay * 2, DETACHED_RETRY_MAX_MS)) {
      try {
        await this.dispatch(payload);
        break;
      } catch {
        // not committed: while the member still runs it tries again, else the partition's next owner (or this one after a restart) redelivers it
        if (!this.running || !isRunning()) return;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
    progress.finish(payload.message.offset);
    await this.commitDone(payload.topic, payload.partition, progress);
  }

  /** Queues a partition's contiguous done offsets for the next commit (detached handling). */
  private async commitDone(topic: string, partition: number, progress: PartitionProgress): Promise<void> {
    const offset = progress.commitable();
    if (offset === undefined) return;
    await this.queueCommit({ topic, partition, offset, progress });
  }

  /**
   * Puts an offset (Kafka's "next to read") in the next commit request, which goes COMMIT_LINGER_MS
   * after the first offset waiting for it; while the member stops, at once (and the promise is
   * that request's answer).
   */
  private queueCommit(commit: WaitingCommit): Promise<void> {
    this.commitsWaiting.set(`${commit.topic}|${commit.partition}`, commit);
    if (!this.running) return this.flushCommits();
    if (!this.commitTimer) {
      this.commitTimer = setTimeout(() => void this.flushCommits(), this.settings.commitLingerMs ?? COMMIT_LINGER_MS);
      this.commitTimer.unref();
    }
    return Promise.resolve();
  }

  /**
   * Sends the offsets waiting now. One commit request at a time per member: offsets queued while
   * one is out wait for the next (the latest per partition).
   */
  private async flushCommits(): Promise<void> {
    clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    while (this.committing) await this.committing;
    if (this.commitsWaiting.size === 0) return;
    const batch = [...this.commitsWaiting.values()];
    this.commitsWaiting.clear();
    const offsets = batch.map(({ topic, partition, offset }) => ({ topic, partition, offset }));
    this.committing = this.consumer
      .commitOffsets(offsets)
      .then(
        () => {
          for (const { offset, progress } of batch) progress?.committedAt(offset);
        },
        (error: unknown) => {
          // a rebalance took a partition: its new owner redelivers what this commit would have covered
          this.settings.logger.warn({ commits: offsets, err: error }, 'offset commit failed; the messages after the last commit may come again');
        },
      )
      .finally(() => {
        this.committing = undefined;
      });
    await this.committing;
  }

  /** Stops fetching, lets in-flight handlers finish, commits their offsets and leaves the group. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.keepAlive);
    // detached handlers finish and commit while the member is still in its group
    await Promise.allSettled([...this.detached]);
    await this.flushCommits();
    // in-order batches still running commit as they end (queueCommit sends at once now), before kafkajs leaves the group
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
    const key = message.key?.toString('utf8') ?? null;
    // a failure to decide (e.g. the store it asks is away) throws: the message comes again
    if (subscription.wants && !(await subscription.wants(key))) return this.metrics.handled(topic, 'passed_over', startedAt);
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

    let value: unknown;
    try {
      value = subscription.topic.value.parse(JSON.parse(raw));
    } catch (error) {
      this.settings.logger.error({ topic, partition, offset: message.offset, err: error }, 'off-contract message sent to dead letter');
      // the prefix marks a producer's bug apart from a handler's failure (`npm test` fails on any)
      await this.settings.deadLetter({ topic, partition, offset: message.offset, key, value: raw, error: `${OFF_CONTRACT}: ${String(error)}`, consumerGroup: this.settings.groupId });
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
