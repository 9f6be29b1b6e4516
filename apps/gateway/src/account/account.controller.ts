import { Controller, Get, UseGuards } from '@nestjs/common';
import type { Account } from '@jobs/contracts';
import { providersForPlan } from '@jobs/plans';
import { ApiKeyGuard, CurrentPrincipal } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/api-key.js';
import { ApiError } from '../http/api-error.js';
import { AccountBalances } from './account-balances.js';

@Controller('v1/account')
@UseGuards(ApiKeyGuard)
export class AccountController {
  constructor(private readonly balances: AccountBalances) {}

  @Get()
  async get(@CurrentPrincipal() principal: Principal): Promise<Account> {
    // Plan and rate limit came with the key; only the balance, which billing changes, is read
    // (AccountBalances: as PostgreSQL holds it now, concurrent requests' reads in one statement).
    const balance = await this.balances.of(principal.accountId);
    if (!balance) throw new ApiError('unauthorized', 'The account of this API key no longer exists.');
    return {
      plan: principal.plan,
      credits_remaining: balance.creditsRemaining,
      credits_reset_at: balance.creditsResetAt.toISOString(),
      providers_enabled: providersForPlan(principal.plan),
      rate_limit: { limit: principal.rateLimit, window_seconds: principal.rateLimitWindowSeconds },
    };
  }
}
