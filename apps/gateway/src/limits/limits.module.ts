import { Module } from '@nestjs/common';
import { RateLimitGate } from './rate-limit.gate.js';
import { RateLimiter } from './rate-limiter.js';

/** Rate limits per account (and per client address on keyless routes); DoorInterceptor runs the gate. */
@Module({
  providers: [RateLimiter, RateLimitGate],
  exports: [RateLimitGate],
})
export class LimitsModule {}
