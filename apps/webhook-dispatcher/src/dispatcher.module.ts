import { type DynamicModule, Module } from '@nestjs/common';
import { Topics, ALL_TOPICS } from '@jobs/contracts';
import { CursorCodec } from '@jobs/cursors';
import { PrismaModule } from '@jobs/db';
import { KafkaModule } from '@jobs/nest-kafka';
import { HostResolver, SecretBox } from '@jobs/webhook-targets';
import { DISPATCHER_CONFIG, type DispatcherConfig } from './config.js';
import { DeliveryStore } from './deliveries/delivery-store.js';
import { DeliveryWorker } from './deliveries/delivery-worker.js';
import { EventsConsumer } from './deliveries/events.consumer.js';
import { LegacySecretsSealer } from './deliveries/legacy-secrets.sealer.js';
import { SecretsKeyCheck } from './deliveries/secrets-key.check.js';
import { StoreEventUseCase } from './events/store-event.usecase.js';
import { DispatcherQueriesConsumer } from './queries/dispatcher-queries.consumer.js';
import { EndpointSecretsUseCase } from './queries/endpoint-secrets.usecase.js';
import { CURSOR_CODEC, ListEventsUseCase } from './queries/list-events.usecase.js';
import { ReplayEventUseCase } from './queries/replay-event.usecase.js';

/** Messages of one partition handled at once (one store transaction for a batch of events). */
const EVENTS_HANDLED_TOGETHER = 500;

@Module({})
export class DispatcherModule {
  static forRoot(config: DispatcherConfig): DynamicModule {
    return {
      module: DispatcherModule,
      imports: [
        PrismaModule.forRoot({ url: config.DATABASE_URL }),
        // A fetched batch's messages are handled together: its events are stored in one transaction
        // (EventsConsumer), its feed reads and replays answered side by side. Offsets are committed
        // once every message up to them is done.
        KafkaModule.forRoot({
          brokers: config.KAFKA_BROKERS,
          groupId: 'webhook-dispatcher',
          topology: ALL_TOPICS,
          deadLetterTopic: Topics.DeadLetter,
          concurrencyWithinPartition: EVENTS_HANDLED_TOGETHER,
        }),
      ],
      controllers: [EventsConsumer, DispatcherQueriesConsumer],
      providers: [
        { provide: DISPATCHER_CONFIG, useValue: config },
        { provide: CURSOR_CODEC, useValue: new CursorCodec(config.CURSOR_SECRET) },
        // Signing secrets are sealed at rest under WEBHOOK_SECRETS_KEY.
        { provide: SecretBox, useValue: new SecretBox(config.WEBHOOK_SECRETS_KEY) },
        // Every connection's host name resolves through one bounded, cached resolver (c-ares, never the thread pool).
        {
          provide: HostResolver,
          useValue: new HostResolver({
            timeoutMs: config.WEBHOOK_DNS_TIMEOUT_MS,
            tries: config.WEBHOOK_DNS_TRIES,
            maxTtlSeconds: config.WEBHOOK_DNS_CACHE_MAX_SECONDS,
            negativeTtlSeconds: config.WEBHOOK_DNS_NEGATIVE_CACHE_SECONDS,
            servers: config.WEBHOOK_DNS_SERVERS,
          }),
        },
        SecretsKeyCheck,
        LegacySecretsSealer,
        StoreEventUseCase,
        DeliveryStore,
        DeliveryWorker,
        ListEventsUseCase,
        ReplayEventUseCase,
        EndpointSecretsUseCase,
      ],
    };
  }
}
