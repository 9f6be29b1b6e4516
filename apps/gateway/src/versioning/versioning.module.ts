import { Module } from '@nestjs/common';
import { ServiceVersionGuard } from './service-version.guard.js';
import { ServiceVersionGate } from './service-version.gate.js';

/**
 * `Service-Version` checking and reporting; main.ts installs the guard and the header hook, DoorInterceptor runs the
 * gate.
 */
@Module({
  providers: [ServiceVersionGuard, ServiceVersionGate],
  exports: [ServiceVersionGuard, ServiceVersionGate],
})
export class VersioningModule {}
