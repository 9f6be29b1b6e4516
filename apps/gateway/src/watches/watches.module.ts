import { Module } from '@nestjs/common';
import { WebhookEndpointsModule } from '../webhook-endpoints/webhook-endpoints.module.js';
import { ManageWatchesUseCase } from './manage-watches.usecase.js';
import { WatchesController } from './watches.controller.js';

@Module({
  imports: [WebhookEndpointsModule],
  controllers: [WatchesController],
  providers: [ManageWatchesUseCase],
  exports: [ManageWatchesUseCase],
})
export class WatchesModule {}
