import { Module } from '@nestjs/common';
import { LimitsModule } from '../limits/limits.module.js';
import { ServiceVersionGuard } from './service-version.guard.js';
import { ServiceVersionInterceptor } from './service-version.interceptor.js';

/** `Service-Version` checking and reporting; main.ts installs the guard, interceptor and header hook. */
@Module({
  imports: [LimitsModule],
  providers: [ServiceVersionGuard, ServiceVersionInterceptor],
  exports: [ServiceVersionGuard, ServiceVersionInterceptor],
})
export class VersioningModule {}
