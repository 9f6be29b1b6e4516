import { type DynamicModule, Module } from '@nestjs/common';
import { Topics, ALL_TOPICS } from '@jobs/contracts';
import { KafkaModule } from '@jobs/nest-kafka';
import type { DispatcherConfig } from './config.js';
import { EventsConsumer } from './deliveries/events.consumer.js';

@Module({})
export class DispatcherModule {
  static forRoot(config: DispatcherConfig): DynamicModule {
    return {
      module: DispatcherModule,
      imports: [KafkaModule.forRoot({ brokers: config.KAFKA_BROKERS, groupId: 'webhook-dispatcher', topology: ALL_TOPICS, deadLetterTopic: Topics.DeadLetter })],
      controllers: [EventsConsumer],
    };
  }
}
