import { Module } from '@nestjs/common';
import { ListProvidersUseCase } from './list-providers.usecase.js';
import { ProviderBreakersStore } from './provider-breakers.store.js';
import { ProviderHealthMonitor } from './provider-health.monitor.js';
import { ProviderSimClient } from './provider-sim.client.js';
import { ProvidersController } from './providers.controller.js';

/** GET /v1/providers and the health checks and breaker states behind it; the admin API reuses the simulator client. */
@Module({
  controllers: [ProvidersController],
  providers: [ProviderSimClient, ProviderHealthMonitor, ProviderBreakersStore, ListProvidersUseCase],
  exports: [ProviderSimClient, ProviderHealthMonitor, ListProvidersUseCase],
})
export class ProvidersModule {}
