import { Injectable } from '@nestjs/common';
import type { Account } from '@jobs/contracts';
import { providersForPlan } from '@jobs/plans';
import type { Principal } from '../auth/api-key.js';
import { ApiError } from '../http/api-error.js';
import { AccountBalances } from './account-balances.js';

/** GET /v1/account and the dashboard's usage page: the key's account with its balance as PostgreSQL holds it now. */
@Injectable()
export class ReadAccountUseCase {
  constructor(private readonly balances: AccountBalances) {}

  async execute(principal: Principal): Promise<Account> {
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
