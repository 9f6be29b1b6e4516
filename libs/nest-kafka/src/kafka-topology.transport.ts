import { Inject, Injectable } from '@nestjs/common';
import { Server, type CustomTransportStrategy, type MessageHandler as NestHandler } from '@nestjs/microservices';
import { Kafka } from 'kafkajs';
import { isObservable, lastValueFrom } from 'rxjs';
import { TopicConsumer, type MessageMeta, type TopicSpec } from '@jobs/kafka';
import type { Logger } from '@jobs/observability';
import { DrainRegistry, LOGGER, ReadinessRegistry, SERVICE_INFO, type ServiceInfo } from '@jobs/service-kit';
import { KafkaPublisher } from './kafka-publisher.js';
import { KAFKA_OPTIONS, type KafkaModuleOptions } from './kafka.options.js';

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
  private consumer?: TopicConsumer;

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
    const consumer = new TopicConsumer(this.kafka, {
      groupId: this.options.groupId,
      service: this.info.name,
      logger: this.log.child({ component: 'consumer', group: this.options.groupId }),
      fromBeginning: this.options.fromBeginning,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently,
      concurrencyWithinPartition: this.options.concurrencyWithinPartition,
      deadLetter: ({ consumerGroup, ...letter }) =>
        this.publisher.publish(this.options.deadLetterTopic, { v: 1, ...letter, failed_at: new Date().toISOString(), consumer_group: consumerGroup }),
    });
    for (const [pattern, handler] of this.getHandlers()) {
      const topic: TopicSpec | undefined = byName.get(pattern);
      if (!topic) throw new Error(`@EventPattern('${pattern}') is not a topic of the declared topology`);
      consumer.on(topic, (value, meta) => this.invoke(handler, value, meta));
    }
    this.consumer = consumer;
    this.readiness.register(`kafka-consumer:${this.options.groupId}`, () => consumer.isReady());
    await consumer.start();
    callback();
  }

  async close(): Promise<void> {
    await this.consumer?.stop();
  }

  on(): never {
    throw new Error('KafkaTopologyTransport has no transport events');
  }

  unwrap<T>(): T {
    return this.consumer as T;
  }

  private async invoke(handler: NestHandler, value: unknown, meta: MessageMeta): Promise<void> {
    const result: unknown = await handler(value, meta);
    if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
  }
}
