import { Module } from '@nestjs/common';
import { RateLimitInterceptor } from './rate-limit.interceptor.js';
import { RateLimiter } from './rate-limiter.js';

/** Rate limits per account (and per client address on keyless routes); main.ts installs the interceptor globally. */
@Module({
  providers: [RateLimiter, RateLimitInterceptor],
  exports: [RateLimitInterceptor],
})
export class LimitsModule {}
