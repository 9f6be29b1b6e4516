import { Module } from '@nestjs/common';
import { EventFeedUseCase } from './event-feed.usecase.js';
import { EventsController } from './events.controller.js';

@Module({ controllers: [EventsController], providers: [EventFeedUseCase], exports: [EventFeedUseCase] })
export class EventsModule {}
