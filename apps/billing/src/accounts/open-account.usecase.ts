import { Injectable } from '@nestjs/common';
import type { BillingQueryRequested } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';

type AccountOpenQuery = Extract<BillingQueryRequested.Value['query'], { kind: 'account.open' }>;

/** A new account's credits last this long before they reset. */
export const CREDIT_PERIOD_DAYS = 30;

/**
 * Admin `POST /admin/accounts`: billing opens the account (it owns the `accounts` table: plan,
 * rate limit and credits), under the id the gateway minted, before the gateway issues its keys.
 * Opening an id that exists changes nothing, so a redelivered message is answered again alike.
 */
@Injectable()
export class OpenAccountUseCase {
  constructor(private readonly prisma: PrismaService) {}

  async execute(
    accountId: string,
    query: AccountOpenQuery,
  ): Promise<{ kind: 'account.open'; credits_remaining: number }> {
    await this.prisma.account.createMany({
      data: [
        {
          id: accountId,
          plan: query.plan,
          creditsRemaining: query.credits,
          monthlyCredits: query.credits,
          creditsResetAt: new Date(Date.now() + CREDIT_PERIOD_DAYS * 86_400_000),
          rateLimitLimit: query.rate_limit.limit,
          rateLimitWindowSeconds: query.rate_limit.window_seconds,
        },
      ],
      skipDuplicates: true,
    });
    const { creditsRemaining } = await this.prisma.account.findUniqueOrThrow({
      where: { id: accountId },
      select: { creditsRemaining: true },
    });
    return { kind: 'account.open', credits_remaining: creditsRemaining };
  }
}
