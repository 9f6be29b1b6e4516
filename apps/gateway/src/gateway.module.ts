import { type DynamicModule, Global, Module } from '@nestjs/common';
import { ALL_TOPICS, Topics } from '@jobs/contracts';
import { PrismaModule } from '@jobs/db';
import { KafkaModule } from '@jobs/nest-kafka';
import { RedisModule } from '@jobs/redis';
import { AccountModule } from './account/account.module.js';
import { AdminUseCasesModule } from './admin/admin.module.js';
import { AuthModule } from './auth/auth.module.js';
import { GATEWAY_CONFIG, type GatewayConfig } from './config/gateway.config.js';
import { StackReadiness } from './readiness/stack-readiness.js';
import { SearchModule } from './search/search.module.js';
import { JobsModule } from './jobs/jobs.module.js';
import { CompaniesModule } from './companies/companies.module.js';
import { LedgerModule } from './ledger/ledger.module.js';
import { EventsModule } from './events/events.module.js';
import { MessagingModule } from './messaging/messaging.module.js';
import { ProvidersModule } from './providers/providers.module.js';
import { OpenApiModule } from './openapi/openapi.module.js';
import { DocsModule } from './docs/docs.module.js';
import { SandboxModule } from './sandbox/sandbox.module.js';
import { DoorModule } from './http/door.module.js';
import { JsonBodyModule } from './http/json-body.module.js';
import { WatchesModule } from './watches/watches.module.js';
import { AsyncSearchesModule } from './async-searches/async-searches.module.js';
import { DashboardModule } from './dashboard/dashboard.module.js';
import { McpModule } from './mcp/mcp.module.js';

/** The gateway's configuration, for every feature module. */
@Global()
@Module({})
class GatewayConfigModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayConfigModule,
      providers: [{ provide: GATEWAY_CONFIG, useValue: config }],
      exports: [GATEWAY_CONFIG],
    };
  }
}

/**
 * The public API. Infrastructure modules first, then one module per feature; a feature module
 * owns its controllers and use cases.
 */
@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig, instanceId: string): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        GatewayConfigModule.forRoot(config),
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
        AuthModule,
        // The door (installed in main.ts): version check, rate limit, admission, idempotency.
        DoorModule,
        // JSON bodies: depth and size bounded before anything walks them
        JsonBodyModule,
        MessagingModule,
        JobsModule,
        CompaniesModule,
        LedgerModule,
        EventsModule,
        AccountModule,
        SearchModule,
        ProvidersModule,
        WatchesModule,
        AsyncSearchesModule,
        SandboxModule,
        OpenApiModule,
        DocsModule,
        // MCP: tools that call the API above through the same pipeline
        McpModule,
        AdminUseCasesModule,
        DashboardModule,
      ],
      providers: [StackReadiness],
    };
  }
}
