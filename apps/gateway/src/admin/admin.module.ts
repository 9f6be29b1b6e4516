import { type DynamicModule, Module, type OnModuleInit } from '@nestjs/common';
import type { INestApplicationContext } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { MetricsController } from '@jobs/service-kit';
import { GATEWAY_CONFIG } from '../config/gateway.config.js';
import { ProvidersModule } from '../providers/providers.module.js';
import { RotateWebhookSecretUseCase } from '../webhook-endpoints/rotate-webhook-secret.usecase.js';
import { WebhookEndpointsModule } from '../webhook-endpoints/webhook-endpoints.module.js';
import { WebhookSecretsUseCase } from '../webhook-endpoints/webhook-secrets.usecase.js';
import { installAdminJsonParser } from './admin-json-body.js';
import { AdminController } from './admin.controller.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { ManageAccountsUseCase } from './manage-accounts.usecase.js';
import { ManageKeysUseCase } from './manage-keys.usecase.js';
import { ProviderControlsUseCase } from './provider-controls.usecase.js';
import { RequestRefreshUseCase } from './request-refresh.usecase.js';
import { CrawlerBoardsFileLoader } from './crawler-boards/crawler-boards-file.loader.js';
import { ManageCrawlerBoardsUseCase } from './crawler-boards/manage-crawler-boards.usecase.js';
import { WorldControlsUseCase } from './world-controls.usecase.js';

const OWN_USE_CASES = [
  ManageAccountsUseCase,
  ManageKeysUseCase,
  ProviderControlsUseCase,
  WorldControlsUseCase,
  RequestRefreshUseCase,
  ManageCrawlerBoardsUseCase,
];
/** What the admin controller calls: its own use cases and the webhook endpoints' (shared with the public API). */
const ADMIN_USE_CASES = [...OWN_USE_CASES, WebhookSecretsUseCase, RotateWebhookSecretUseCase];

/**
 * The admin use cases live in the gateway's context (GatewayModule imports this), so they share
 * its database, Redis, key cache and provider health monitor.
 */
@Module({
  imports: [ProvidersModule, WebhookEndpointsModule],
  providers: [...OWN_USE_CASES, CrawlerBoardsFileLoader],
  exports: [...OWN_USE_CASES, WebhookEndpointsModule],
})
export class AdminUseCasesModule {}

/**
 * The admin API listens on its own port (never exposed publicly), so it is a second Nest HTTP
 * application in the gateway process that reuses the gateway's use cases, not a second copy.
 */
@Module({})
export class AdminModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /** Runs after Nest registered its body parsers and before the server listens. */
  onModuleInit(): void {
    installAdminJsonParser(this.adapterHost.httpAdapter.getInstance<FastifyInstance>());
  }

  static sharing(gateway: INestApplicationContext): DynamicModule {
    return {
      module: AdminModule,
      // GET /metrics of the whole gateway process, for the operator's Prometheus only.
      controllers: [AdminController, MetricsController],
      providers: [
        AdminTokenGuard,
        { provide: GATEWAY_CONFIG, useValue: gateway.get(GATEWAY_CONFIG) },
        ...ADMIN_USE_CASES.map((useCase) => ({ provide: useCase, useValue: gateway.get(useCase) })),
      ],
    };
  }
}
