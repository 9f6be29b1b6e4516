import { Controller, Get, UseGuards } from '@nestjs/common';
import type { Account } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { providersForPlan } from '@jobs/plans';
import { ApiKeyGuard, CurrentPrincipal } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/api-key.js';

@Controller('v1/account')
@UseGuards(ApiKeyGuard)
export class AccountController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  async get(@CurrentPrincipal() principal: Principal): Promise<Account> {
    const account = await this.prisma.account.findUniqueOrThrow({ where: { id: principal.accountId } });
    return {
      plan: account.plan,
      credits_remaining: account.creditsRemaining,
      credits_reset_at: account.creditsResetAt.toISOString(),
      providers_enabled: providersForPlan(account.plan),
      rate_limit: { limit: account.rateLimitLimit, window_seconds: account.rateLimitWindowSeconds },
    };
  }
}
