import { Module } from '@nestjs/common';
import { GetJobUseCase } from './get-job.usecase.js';
import { JobsController } from './jobs.controller.js';

@Module({ controllers: [JobsController], providers: [GetJobUseCase] })
export class JobsModule {}
