import { Module } from '@nestjs/common';
import { AsyncSearchesController } from './async-searches.controller.js';
import { AsyncSearchesUseCase } from './async-searches.usecase.js';

@Module({ controllers: [AsyncSearchesController], providers: [AsyncSearchesUseCase] })
export class AsyncSearchesModule {}
