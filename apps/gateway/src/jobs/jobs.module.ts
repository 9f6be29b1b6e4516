import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module.js';
import { ReadJobAndChargeUseCase } from './read-job-and-charge.usecase.js';
import { JobsController } from './jobs.controller.js';

@Module({ imports: [AccountModule], controllers: [JobsController], providers: [ReadJobAndChargeUseCase] })
export class JobsModule {}
