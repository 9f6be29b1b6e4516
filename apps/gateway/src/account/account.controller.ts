import { Controller, Get, UseGuards } from '@nestjs/common';
import { z } from 'zod';
import type { Account } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { providersForPlan } from '@jobs/plans';
import { ApiKeyGuard, CurrentPrincipal } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/api-key.js';
import { ApiError } from '../http/api-error.js';

const BalanceRowSchema = z.object({ credits_remaining: z.number().int(), credits_reset_at: z.date() });

@Controller('v1/account')
@UseGuards(ApiKeyGuard)
export class AccountController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  async get(@CurrentPrincipal() principal: Principal): Promise<Account> {
    // Plan and rate limit came with the key; only the balance, which billing changes, is read
    // here, as one raw statement: Prisma's query building took about a fifth of the gateway's
    // CPU on this route (bench:account profile, bench/README).
    const rows = await this.prisma.$queryRaw<unknown[]>`SELECT credits_remaining, credits_reset_at FROM accounts WHERE id = ${principal.accountId}`;
    if (rows.length === 0) throw new ApiError('unauthorized', 'The account of this API key no longer exists.');
    const balance = BalanceRowSchema.parse(rows[0]);
    return {
      plan: principal.plan,
      credits_remaining: balance.credits_remaining,
      credits_reset_at: balance.credits_reset_at.toISOString(),
      providers_enabled: providersForPlan(principal.plan),
      rate_limit: { limit: principal.rateLimit, window_seconds: principal.rateLimitWindowSeconds },
    };
  }
}
