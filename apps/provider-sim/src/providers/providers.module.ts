import { Module } from '@nestjs/common';
import { WorldModule } from '../world/world.module.js';
import { ProviderBehaviourService } from './provider-behaviour.service.js';
import { ProvidersController } from './providers.controller.js';
import { ProvidersService } from './providers.service.js';

@Module({
  imports: [WorldModule],
  controllers: [ProvidersController],
  providers: [ProvidersService, ProviderBehaviourService],
  exports: [ProviderBehaviourService],
})
export class ProvidersModule {}
