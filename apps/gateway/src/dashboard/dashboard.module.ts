import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AccountModule } from '../account/account.module.js';
import { AdminUseCasesModule } from '../admin/admin.module.js';
import { AsyncSearchesModule } from '../async-searches/async-searches.module.js';
import { EventsModule } from '../events/events.module.js';
import { LedgerModule } from '../ledger/ledger.module.js';
import { ProvidersModule } from '../providers/providers.module.js';
import { WatchesModule } from '../watches/watches.module.js';
import { WebhookEndpointsModule } from '../webhook-endpoints/webhook-endpoints.module.js';
import { DashboardApiController } from './dashboard-api.controller.js';
import { DashboardAssetsController, DashboardBuild } from './dashboard-assets.controller.js';
import { DashboardAsyncSearchesUseCase } from './dashboard-async-searches.usecase.js';
import { DashboardDeliveriesUseCase } from './dashboard-deliveries.usecase.js';
import { DashboardFeedsController } from './dashboard-feeds.controller.js';
import { DashboardHeadersInterceptor } from './dashboard-headers.interceptor.js';
import { DashboardKeysUseCase } from './dashboard-keys.usecase.js';
import { DashboardLedgerController } from './dashboard-ledger.controller.js';
import { DashboardLedgerUseCase } from './dashboard-ledger.usecase.js';
import { DashboardSessionGuard, DashboardSessionIfAny } from './dashboard-session.guard.js';
import { DashboardSessionStore } from './dashboard-session.store.js';
import { DashboardSignInUseCase } from './dashboard-sign-in.usecase.js';
import { DashboardUsageUseCase } from './dashboard-usage.usecase.js';

/**
 * The customer dashboard: its page and assets at /dashboard/, its API at
 * /dashboard/api, signed in by session cookie. It reuses the public API's and the admin API's
 * use cases rather than its own copies.
 */
@Module({
  imports: [
    AccountModule,
    AdminUseCasesModule,
    AsyncSearchesModule,
    EventsModule,
    LedgerModule,
    ProvidersModule,
    WatchesModule,
    WebhookEndpointsModule,
  ],
  controllers: [DashboardApiController, DashboardLedgerController, DashboardFeedsController, DashboardAssetsController],
  providers: [
    DashboardSessionStore,
    DashboardSessionGuard,
    DashboardSessionIfAny,
    DashboardSignInUseCase,
    DashboardKeysUseCase,
    DashboardUsageUseCase,
    DashboardDeliveriesUseCase,
    DashboardAsyncSearchesUseCase,
    DashboardHeadersInterceptor,
    DashboardLedgerUseCase,
    DashboardBuild,
  ],
})
export class DashboardModule implements OnModuleInit {
  constructor(
    private readonly adapter: HttpAdapterHost,
    private readonly build: DashboardBuild,
  ) {}

  /**
   * `/dashboard/`, the address people type and the build's own base, serves the page too. Nest
   * folds a trailing slash into `/dashboard`, so this is a route of Fastify's own (as `/docs/`);
   * without a build it sends the caller to `/dashboard`, which says so in the error envelope.
   */
  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    fastify.get('/dashboard/', async (_request, reply) => {
      if (!(await this.build.sendPage(reply))) await reply.redirect('/dashboard', 308);
      return reply;
    });
  }
}
