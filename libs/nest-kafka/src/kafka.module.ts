import { type DynamicModule, Global, Module } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { createKafkaClient } from '@jobs/kafka';
import type { Logger } from '@jobs/observability';
import { LOGGER, SERVICE_INFO, type ServiceInfo } from '@jobs/service-kit';
import { KafkaPublisher } from './kafka-publisher.js';
import { KafkaTopologyTransport } from './kafka-topology.transport.js';
import { QueryAnswers } from './query-answers.js';
import { KAFKA_OPTIONS, type KafkaModuleOptions } from './kafka.options.js';

@Global()
@Module({})
export class KafkaModule {
  static forRoot(options: KafkaModuleOptions): DynamicModule {
    return {
      module: KafkaModule,
      providers: [
        { provide: KAFKA_OPTIONS, useValue: options },
        {
          provide: Kafka,
          inject: [SERVICE_INFO, LOGGER],
          useFactory: (info: ServiceInfo, logger: Logger) =>
            createKafkaClient({ clientId: info.name, brokers: options.brokers, logger }),
        },
        KafkaPublisher,
        KafkaTopologyTransport,
        QueryAnswers,
      ],
      exports: [Kafka, KafkaPublisher, KafkaTopologyTransport, QueryAnswers],
    };
  }
}
