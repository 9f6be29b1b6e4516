import { Module } from '@nestjs/common';
import { WebhookEndpointsModule } from '../webhook-endpoints/webhook-endpoints.module.js';
import { AskWatchesUseCase } from './ask-watches.usecase.js';
import { WatchesController } from './watches.controller.js';

@Module({
  imports: [WebhookEndpointsModule],
  controllers: [WatchesController],
  providers: [AskWatchesUseCase],
  exports: [AskWatchesUseCase],
})
export class WatchesModule {}
