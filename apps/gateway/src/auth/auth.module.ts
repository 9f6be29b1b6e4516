import { Global, Module } from '@nestjs/common';
import { LimitsModule } from '../limits/limits.module.js';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeyService } from './api-key.service.js';

/**
 * API-key authentication, available to every gateway feature module; with it the rate limits, which
 * the guard asks before looking up a key no cache knew (a guard is made in its controller's module).
 */
@Global()
@Module({
  imports: [LimitsModule],
  providers: [ApiKeyService, ApiKeyGuard],
  exports: [ApiKeyService, ApiKeyGuard, LimitsModule],
})
export class AuthModule {}
