import { Module } from '@nestjs/common';
import { WorldModule } from '../world/world.module.js';
import { ProviderBehaviourService } from './provider-behaviour.service.js';
import { ProviderRoutes } from './provider-routes.js';
import { ProvidersService } from './providers.service.js';

@Module({
  imports: [WorldModule],
  providers: [ProvidersService, ProviderBehaviourService, ProviderRoutes],
  exports: [ProviderBehaviourService],
})
export class ProvidersModule {}
