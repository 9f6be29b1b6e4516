import { Injectable } from '@nestjs/common';
import type { Plan } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { newId } from '@jobs/observability';
import { PLAN_DEFAULTS } from '@jobs/plans';
import { generateApiKey, hashApiKey, type KeyMode } from '../auth/api-key.js';
import { ApiKeyService } from '../auth/api-key.service.js';
import { ApiError } from '../http/api-error.js';

export interface CreateAccountCommand {
  plan: Plan;
  credits: number;
  rate_limit?: { limit: number; window_seconds: number } | undefined;
}

const CREDIT_PERIOD_DAYS = 30;

/** Accounts and keys, as the admin API of operator.md manages them. */
@Injectable()
export class ManageAccountsUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly keys: ApiKeyService,
  ) {}

  async createAccount(command: CreateAccountCommand): Promise<{ account_id: string; live_key: string; test_key: string }> {
    const accountId = newId('acc');
    const liveKey = generateApiKey('live');
    const testKey = generateApiKey('test');
    const rateLimit = command.rate_limit ?? { limit: PLAN_DEFAULTS[command.plan].rateLimit.limit, window_seconds: PLAN_DEFAULTS[command.plan].rateLimit.windowSeconds };
    await this.prisma.account.create({
      data: {
        id: accountId,
        plan: command.plan,
        creditsRemaining: command.credits,
        creditsResetAt: new Date(Date.now() + CREDIT_PERIOD_DAYS * 86_400_000),
        rateLimitLimit: rateLimit.limit,
        rateLimitWindowSeconds: rateLimit.window_seconds,
        apiKeys: {
          create: [
            { id: newId('key'), mode: 'live', keyHash: hashApiKey(liveKey), keyPrefix: liveKey.slice(0, 12) },
            { id: newId('key'), mode: 'test', keyHash: hashApiKey(testKey), keyPrefix: testKey.slice(0, 12) },
          ],
        },
      },
    });
    return { account_id: accountId, live_key: liveKey, test_key: testKey };
  }

  async addCredits(accountId: string, amount: number): Promise<{ credits_remaining: number }> {
    const updated = await this.prisma.account.updateMany({ where: { id: accountId }, data: { creditsRemaining: { increment: amount } } });
    if (updated.count === 0) throw new ApiError('not_found', `No account ${accountId}.`);
    const account = await this.prisma.account.findUniqueOrThrow({ where: { id: accountId } });
    return { credits_remaining: account.creditsRemaining };
  }

  async createKey(accountId: string, mode: KeyMode): Promise<{ key: string }> {
    const exists = await this.prisma.account.count({ where: { id: accountId } });
    if (!exists) throw new ApiError('not_found', `No account ${accountId}.`);
    const key = generateApiKey(mode);
    await this.prisma.apiKey.create({ data: { id: newId('key'), accountId, mode, keyHash: hashApiKey(key), keyPrefix: key.slice(0, 12) } });
    return { key };
  }

  async revokeKey(key: string): Promise<void> {
    if (!(await this.keys.revoke(key))) throw new ApiError('not_found', 'No such active key.');
  }
}
