import { Module } from '@nestjs/common';
import { ManageWatchesUseCase } from './manage-watches.usecase.js';
import { WatchesController } from './watches.controller.js';

@Module({ controllers: [WatchesController], providers: [ManageWatchesUseCase], exports: [ManageWatchesUseCase] })
export class WatchesModule {}
