import { Module } from '@nestjs/common';
import { AdmissionModule } from '../admission/admission.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { LimitsModule } from '../limits/limits.module.js';
import { VersioningModule } from '../versioning/versioning.module.js';
import { DoorInterceptor } from './door.interceptor.js';

/** The door's gates and the interceptor that runs them; main.ts installs it globally with the version guard. */
@Module({
  imports: [LimitsModule, AdmissionModule, VersioningModule, IdempotencyModule],
  providers: [DoorInterceptor],
  exports: [DoorInterceptor],
})
export class DoorModule {}
