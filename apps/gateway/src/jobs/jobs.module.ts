import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module.js';
import { GetJobUseCase } from './get-job.usecase.js';
import { JobsController } from './jobs.controller.js';

@Module({ imports: [AccountModule], controllers: [JobsController], providers: [GetJobUseCase] })
export class JobsModule {}
