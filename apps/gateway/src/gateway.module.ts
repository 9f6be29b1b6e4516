import { type DynamicModule, Module } from '@nestjs/common';
import { Topics, ALL_TOPICS } from '@jobs/contracts';
import { PrismaModule } from '@jobs/db';
import { KafkaModule } from '@jobs/nest-kafka';
import { RedisModule } from '@jobs/redis';
import { AccountController } from './account/account.controller.js';
import { ApiKeyGuard } from './auth/api-key.guard.js';
import { ApiKeyService } from './auth/api-key.service.js';
import { GATEWAY_CONFIG, type GatewayConfig } from './config/gateway.config.js';
import { StackReadiness } from './readiness/stack-readiness.js';
import { RunSyncSearchUseCase } from './search/run-sync-search.usecase.js';
import { SearchReplies } from './search/search-replies.js';
import { SearchRepliesConsumer } from './search/search-replies.consumer.js';
import { SearchController } from './search/search.controller.js';
import { ManageAccountsUseCase } from './admin/manage-accounts.usecase.js';

@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig, instanceId: string): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        PrismaModule.forRoot({ url: config.DATABASE_URL }),
        RedisModule.forRoot(config.REDIS_URL),
        KafkaModule.forRoot({
          brokers: config.KAFKA_BROKERS,
          // Every replica hears every reply and settles the searches it waits for.
          groupId: `gateway.replies.${instanceId}`,
          fromBeginning: false,
          topology: ALL_TOPICS,
          deadLetterTopic: Topics.DeadLetter,
        }),
      ],
      controllers: [SearchController, AccountController, SearchRepliesConsumer],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        ApiKeyService,
        ApiKeyGuard,
        SearchReplies,
        RunSyncSearchUseCase,
        ManageAccountsUseCase,
        StackReadiness,
      ],
      exports: [GATEWAY_CONFIG, ManageAccountsUseCase, ApiKeyService],
    };
  }
}
