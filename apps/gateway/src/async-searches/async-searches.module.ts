import { Module } from '@nestjs/common';
import { WebhookEndpointsModule } from '../webhook-endpoints/webhook-endpoints.module.js';
import { AsyncSearchesController } from './async-searches.controller.js';
import { AsyncSearchesUseCase } from './async-searches.usecase.js';

@Module({
  imports: [WebhookEndpointsModule],
  controllers: [AsyncSearchesController],
  providers: [AsyncSearchesUseCase],
  exports: [AsyncSearchesUseCase],
})
export class AsyncSearchesModule {}
