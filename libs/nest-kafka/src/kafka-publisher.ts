import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import {
  provisionTopics,
  TypedProducer,
  type OutgoingMessage,
  type PublishOptions,
  type TopicSpec,
  type ValueOf,
} from '@jobs/kafka';
import { LOGGER, ReadinessRegistry, SERVICE_INFO, type ServiceInfo } from '@jobs/service-kit';
import type { Logger } from '@jobs/observability';
import { KAFKA_OPTIONS, type KafkaModuleOptions } from './kafka.options.js';

/**
 * The service's producer. It provisions the declared topics before the first publish (every
 * service does, so start order does not matter) and disconnects last, after consumers drained.
 */
@Injectable()
export class KafkaPublisher implements OnModuleInit, OnApplicationShutdown {
  private readonly producer: TypedProducer;
  private connected = false;

  constructor(
    private readonly kafka: Kafka,
    @Inject(KAFKA_OPTIONS) private readonly options: KafkaModuleOptions,
    @Inject(SERVICE_INFO) info: ServiceInfo,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: ReadinessRegistry,
  ) {
    this.producer = new TypedProducer(kafka, info.name);
    readiness.register('kafka-producer', () => this.connected);
  }

  async onModuleInit(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      await provisionTopics(admin, this.options.topology, { logger: this.logger });
    } finally {
      await admin.disconnect();
    }
    await this.producer.connect();
    this.connected = true;
  }

  async onApplicationShutdown(): Promise<void> {
    this.connected = false;
    await this.producer.disconnect();
  }

  publish<T extends TopicSpec>(topic: T, value: ValueOf<T>, options?: PublishOptions): Promise<void> {
    return this.producer.publish(topic, value, options);
  }

  publishMany<T extends TopicSpec>(topic: T, messages: readonly OutgoingMessage<T>[]): Promise<void> {
    return this.producer.publishMany(topic, messages);
  }

  /** The raw producer, for the outbox relay. */
  get typed(): TypedProducer {
    return this.producer;
  }
}
