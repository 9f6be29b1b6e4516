import { Inject, Injectable } from '@nestjs/common';
import { Server, type CustomTransportStrategy, type MessageHandler as NestHandler } from '@nestjs/microservices';
import { Kafka } from 'kafkajs';
import { isObservable, lastValueFrom } from 'rxjs';
import { TopicConsumer, type MessageMeta, type TopicSpec } from '@jobs/kafka';
import type { Logger } from '@jobs/observability';
import { DrainRegistry, LOGGER, ReadinessRegistry, SERVICE_INFO, type ServiceInfo } from '@jobs/service-kit';
import { KafkaPublisher } from './kafka-publisher.js';
import { KAFKA_OPTIONS, type BackgroundGroup, type KafkaModuleOptions } from './kafka.options.js';

export const KAFKA_ALL_TOPICS_TRANSPORT = Symbol('KAFKA_ALL_TOPICS_TRANSPORT');

/**
 * A Nest microservice transport over the declared topology: controllers declare
 * `@EventPattern(Topics.X.name)` handlers and receive the contract-checked value and its
 * `MessageMeta`. A handler that throws makes kafkajs redeliver (errors propagate; Nest does
 * not swallow them), an off-contract message goes to the dead-letter topic.
 */
@Injectable()
export class KafkaTopologyTransport extends Server implements CustomTransportStrategy {
  override readonly propagatesEventHandlerErrors = true;
  private consumers: TopicConsumer[] = [];

  constructor(
    private readonly kafka: Kafka,
    private readonly publisher: KafkaPublisher,
    @Inject(KAFKA_OPTIONS) private readonly options: KafkaModuleOptions,
    @Inject(SERVICE_INFO) private readonly info: ServiceInfo,
    @Inject(LOGGER) private readonly log: Logger,
    private readonly readiness: ReadinessRegistry,
    drains: DrainRegistry,
  ) {
    super();
    drains.register('kafka-consumer', () => this.close());
  }

  async listen(callback: (...optionalParams: unknown[]) => unknown): Promise<void> {
    const byName = new Map(this.options.topology.map((t) => [t.name, t]));
    const background = new Map<string, BackgroundGroup>();
    for (const group of this.options.backgroundGroups ?? [])
      for (const topic of group.topics) background.set(topic.name, group);
    const consumers = new Map<string, TopicConsumer>();
    const consumerFor = (group: BackgroundGroup | undefined): TopicConsumer => {
      const groupId = group ? `${this.options.groupId}.${group.suffix}` : this.options.groupId;
      let consumer = consumers.get(groupId);
      if (!consumer) {
        consumer = new TopicConsumer(this.kafka, {
          groupId,
          service: this.info.name,
          groupInstanceId: this.info.replicaId,
          logger: this.log.child({ component: 'consumer', group: groupId }),
          fromBeginning: this.options.fromBeginning,
          partitionsConsumedConcurrently: group
            ? group.partitionsConsumedConcurrently
            : this.options.partitionsConsumedConcurrently,
          concurrencyWithinPartition: group
            ? group.concurrencyWithinPartition
            : this.options.concurrencyWithinPartition,
          detachedInFlight: group ? group.detachedInFlight : this.options.detachedInFlight,
          deadLetter: ({ consumerGroup, ...letter }) =>
            this.publisher.publish(this.options.deadLetterTopic, {
              v: 1,
              ...letter,
              failed_at: new Date().toISOString(),
              consumer_group: consumerGroup,
            }),
        });
        consumers.set(groupId, consumer);
      }
      return consumer;
    };
    for (const [pattern, handler] of this.getHandlers()) {
      const topic: TopicSpec | undefined = byName.get(pattern);
      if (!topic) throw new Error(`@EventPattern('${pattern}') is not a topic of the declared topology`);
      consumerFor(background.get(topic.name)).on(topic, (value, meta) => this.invoke(handler, value, meta));
    }
    this.consumers = [...consumers.values()];
    for (const [groupId, consumer] of consumers)
      this.readiness.register(`kafka-consumer:${groupId}`, () => consumer.isReady());
    // a background group new to the cluster takes over where the service's group stood on its topics
    const backgroundGroups = [...consumers].filter(([groupId]) => groupId !== this.options.groupId);
    if (backgroundGroups.length > 0)
      await this.inheritOffsets(backgroundGroups.map(([groupId, consumer]) => ({ groupId, topics: consumer.topics })));
    await Promise.all(this.consumers.map((consumer) => consumer.start()));
    callback();
  }

  async close(): Promise<void> {
    await Promise.all(this.consumers.map((consumer) => consumer.stop()));
  }

  /**
   * A background group that has no committed offset yet starts from the service group's
   * committed offsets on the same topics (they were consumed there before the split), so
   * nothing is read twice and nothing skipped. Another replica doing the same at once, or a
   * group already running, makes this a no-op. All groups through one admin client and side by
   * side: one after the other, each with its own connection, they were a second of every start
   * of a service with several groups (dedupe, the fetcher), and so of its recovery after a crash.
   */
  private async inheritOffsets(groups: ReadonlyArray<{ groupId: string; topics: readonly string[] }>): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      await Promise.all(
        groups.map(async ({ groupId, topics }) => {
          try {
            const own = await admin.fetchOffsets({ groupId, topics: [...topics] });
            if (own.some((t) => t.partitions.some((p) => Number(p.offset) >= 0))) return;
            const parent = await admin.fetchOffsets({ groupId: this.options.groupId, topics: [...topics] });
            for (const { topic, partitions } of parent) {
              const committed = partitions
                .filter((p) => Number(p.offset) >= 0)
                .map((p) => ({ partition: p.partition, offset: p.offset }));
              if (committed.length > 0) await admin.setOffsets({ groupId, topic, partitions: committed });
            }
          } catch (error) {
            this.log.warn(
              { err: error, group: groupId },
              'could not take over the service group offsets; the group starts as configured',
            );
          }
        }),
      );
    } finally {
      await admin.disconnect();
    }
  }

  on(): never {
    throw new Error('KafkaTopologyTransport has no transport events');
  }

  unwrap<T>(): T {
    return this.consumers as T;
  }

  private async invoke(handler: NestHandler, value: unknown, meta: MessageMeta): Promise<void> {
    const result: unknown = await handler(value, meta);
    if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
  }
}
