import { trace } from '@opentelemetry/api';
import type { Consumer, EachBatchPayload, EachMessagePayload, Kafka, KafkaMessage } from 'kafkajs';
import type { Logger } from '@jobs/observability';
import type { TopicSpec } from './topic.js';
import { ConsumerMetrics } from './consumer-metrics.js';
import {
  handleMessage,
  type DeadLetter,
  type MessageHandler,
  type MessageHandling,
  type Subscription,
  type SubscriptionOptions,
} from './message-handling.js';
import { COMMIT_LINGER_MS, OffsetCommits } from './offset-commits.js';
import { PartitionProgress } from './partition-progress.js';
import { ProcessSpanFolds, type HeldMessage } from './process-span-folds.js';

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
 * The member's session and how often it shows it is alive. kafkajs heartbeats only from its
 * fetch loop, between messages; the keep-alive below heartbeats while handlers run too, so the
 * session bounds the event loop's stalls (GC, a starved 2-core machine), not a handler's length.
 * A restarted replica does not wait for it (static membership); only a member that is gone for
 * good (or runs without INSTANCE_ID) holds its partitions this long.
 */
export const CONSUMER_SESSION_TIMEOUT_MS = 15_000;
export const CONSUMER_HEARTBEAT_INTERVAL_MS = 3_000;

/**
 * How long the broker holds a fetch that finds no new message before answering it empty. A new
 * message ends the wait at once, so this costs no latency; what it sets is how often an idle
 * member asks (every group of every replica asks again as soon as it is answered, so an idle
 * stack sends groups x replicas / this wait fetches a second) and how long a graceful stop waits
 * for the fetch in flight (kafkajs lets it end). Fetches have a connection of their own in
 * kafkajs, so commits and heartbeats never queue behind one.
 */
export const CONSUMER_IDLE_FETCH_WAIT_MS = 5_000;

/** Retries of a failed detached handler: 300 ms doubling to 10 s, while the member owns the partition. */
const DETACHED_RETRY_FIRST_MS = 300;
const DETACHED_RETRY_MAX_MS = 10_000;

/** Kafka accepts [a-zA-Z0-9._-] in a group.instance.id (as in a topic name), at most 249 characters. */
export function groupInstanceIdOf(replica: string): string {
  return replica.replace(/[^a-zA-Z0-9._-]/g, '_').slice(0, 249);
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
  private readonly metrics: ConsumerMetrics;
  /** What handling a message needs of this member. */
  private readonly handling: MessageHandling;
  /** The process spans of the messages in hand, one per trace and topic (ProcessSpanFolds). */
  private readonly spans: ProcessSpanFolds;
  /** Handlers running now, and the heartbeat of the batch they came in: kept alive while > 0. */
  private inHandler = 0;
  private heartbeat: (() => Promise<void>) | undefined;
  private keepAlive: NodeJS.Timeout | undefined;
  /** Detached handlers running now (detachedInFlight), and each partition's progress. */
  private readonly detached = new Set<Promise<void>>();
  private readonly progress = new Map<string, PartitionProgress>();
  private readonly commits: OffsetCommits;

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
      maxWaitTimeInMs: CONSUMER_IDLE_FETCH_WAIT_MS,
      retry: { initialRetryTime: 300, retries: 8, maxRetryTime: 10000 },
    });
    const { GROUP_JOIN, CRASH, STOP, DISCONNECT } = this.consumer.events;
    this.metrics = new ConsumerMetrics(settings.groupId);
    const { groupId, service, logger, deadLetter } = settings;
    this.handling = {
      groupId,
      service,
      logger,
      deadLetter,
      metrics: this.metrics,
      tracer: trace.getTracer('@jobs/kafka'),
    };
    this.spans = new ProcessSpanFolds(this.handling.tracer);
    this.commits = new OffsetCommits(this.consumer, {
      lingerMs: settings.commitLingerMs ?? COMMIT_LINGER_MS,
      logger,
      running: () => this.running,
    });
    this.consumer.on(GROUP_JOIN, () => {
      this.joined = true;
      // a new assignment: what this member knew of partitions it no longer works on is stale
      for (const [key, progress] of this.progress) if (progress.idle) this.progress.delete(key);
    });
    this.consumer.on(CRASH, (event) => {
      this.joined = false;
      const { error, restart } = event.payload;
      // A crash kafkajs recovers from (restart) is a warning; one it does not is an error.
      settings.logger[restart ? 'warn' : 'error'](
        { err: error, restart },
        restart ? 'kafka consumer restarting' : 'kafka consumer stopped',
      );
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
      eachBatch: (payload: EachBatchPayload) =>
        detached > 0 ? this.takeBatch(payload, detached) : this.dispatchBatch(payload, within),
    });
  }

  /**
   * Runs a batch's messages `limit` at a time (1: in order); an offset is resolved only once
   * every message up to it is done, so a crash or a failure redelivers what was not finished (at
   * least once). Its commit lingers; a failure (a handler's, or a heartbeat refused by a
   * rebalance) and a stop send what waits before kafkajs retries, rejoins or leaves.
   */
  private async dispatchBatch(
    { batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload,
    limit: number,
  ): Promise<void> {
    const messages = batch.messages;
    const held = heldOf(batch.topic, batch.partition, messages);
    this.spans.hold(held);
    try {
      for (let start = 0; start < messages.length; start += limit) {
        if (!isRunning() || isStale()) break;
        const slice = messages.slice(start, start + limit);
        await Promise.all(
          slice.map((message) =>
            this.dispatch({
              topic: batch.topic,
              partition: batch.partition,
              message,
              heartbeat,
              pause: () => () => undefined,
            }),
          ),
        );
        this.spans.release(held.slice(start, start + limit));
        const last = slice[slice.length - 1]!.offset;
        resolveOffset(last);
        void this.commits.queue({ topic: batch.topic, partition: batch.partition, offset: String(BigInt(last) + 1n) });
        await heartbeat();
      }
    } catch (error) {
      await this.commits.flush();
      throw error;
    } finally {
      this.spans.release(held);
    }
    if (!isRunning() || !this.running) await this.commits.flush();
  }

  /**
   * Detached handling: takes a batch's messages as room allows (at most `limit` handlers of
   * this member at once), moves the fetch position past each at once and returns, so the next
   * fetch does not wait for the handlers; each partition's offset is committed as its handlers
   * finish.
   */
  private async takeBatch(
    { batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload,
    limit: number,
  ): Promise<void> {
    const key = `${batch.topic}|${batch.partition}`;
    const held = heldOf(batch.topic, batch.partition, batch.messages);
    this.spans.hold(held);
    for (const [i, message] of batch.messages.entries()) {
      while (this.detached.size >= limit) await Promise.race(this.detached);
      if (!isRunning() || isStale() || !this.running) {
        this.spans.release(held.slice(i));
        return;
      }
      let progress = this.progress.get(key);
      if (!progress) this.progress.set(key, (progress = new PartitionProgress()));
      progress.start(message.offset);
      resolveOffset(message.offset);
      const payload = {
        topic: batch.topic,
        partition: batch.partition,
        message,
        heartbeat,
        pause: () => () => undefined,
      };
      const done: Promise<void> = this.handleDetached(payload, progress, isRunning).finally(() => {
        this.spans.release([held[i]!]);
        this.detached.delete(done);
      });
      this.detached.add(done);
    }
  }

  /** Runs one detached handler to success (retrying a transient failure in place), then commits what is done. */
  private async handleDetached(
    payload: EachMessagePayload,
    progress: PartitionProgress,
    isRunning: () => boolean,
  ): Promise<void> {
    for (let delay = DETACHED_RETRY_FIRST_MS; ; delay = Math.min(delay * 2, DETACHED_RETRY_MAX_MS)) {
      try {
        await this.dispatch(payload);
        break;
      } catch {
        // not committed: while the member still runs it tries again, else the partition's next owner (or this one after
        // a restart) redelivers it
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
    await this.commits.queue({ topic, partition, offset, progress });
  }

  /** Stops fetching, lets in-flight handlers finish, commits their offsets and leaves the group. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.keepAlive);
    // detached handlers finish and commit while the member is still in its group
    await Promise.allSettled([...this.detached]);
    await this.commits.flush();
    // in-order batches still running commit as they end (`OffsetCommits.queue` sends at once now), before kafkajs
    // leaves the group
    await this.consumer.disconnect();
    this.spans.flush();
    this.metrics.unwatch();
  }

  /**
   * A heartbeat while a handler runs (kafkajs limits it to one per interval). A refusal (a
   * rebalance under way) is left to kafkajs: its own heartbeat after the handler sees it too.
   */
  private keepSessionAlive(): void {
    if (this.inHandler > 0 && this.running) void this.heartbeat?.().catch(() => undefined);
  }

  private async dispatch(payload: EachMessagePayload): Promise<void> {
    this.inHandler++;
    this.heartbeat = payload.heartbeat;
    try {
      const subscription = this.subscriptions.get(payload.topic);
      if (subscription) await handleMessage(subscription, payload, this.handling, this.spans);
    } finally {
      this.inHandler--;
    }
  }
}

const heldOf = (topic: string, partition: number, messages: readonly KafkaMessage[]): HeldMessage[] =>
  messages.map((message) => ({ topic, partition, message }));
