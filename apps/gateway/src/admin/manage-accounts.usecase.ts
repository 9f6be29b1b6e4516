import { Injectable } from '@nestjs/common';
import { Topics, type AdminAccountCreateRequest, type AdminAccountCreateResponse, type AdminCreditsResponse } from '@jobs/contracts';
import { isRecordNotFound, PrismaService } from '@jobs/db';
import { OutboxRelay } from '@jobs/outbox';
import { newId } from '@jobs/observability';
import { PLAN_DEFAULTS } from '@jobs/plans';
import { generateApiKey, hashApiKey } from '../auth/api-key.js';
import { ApiError } from '../http/api-error.js';

const CREDIT_PERIOD_DAYS = 30;
/** Credits and rate limits are PostgreSQL `integer` columns. */
export const MAX_STORED_INT = 2_147_483_647;

/** Accounts, as the admin API of operator.md creates and tops them up. */
@Injectable()
export class ManageAccountsUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: OutboxRelay,
  ) {}

  async createAccount(command: AdminAccountCreateRequest): Promise<AdminAccountCreateResponse> {
    ensureStorable(command.credits, 'credits');
    const defaults = PLAN_DEFAULTS[command.plan].rateLimit;
    const rateLimit = command.rate_limit ?? { limit: defaults.limit, window_seconds: defaults.windowSeconds };
    ensureStorable(rateLimit.limit, 'rate_limit.limit');
    ensureStorable(rateLimit.window_seconds, 'rate_limit.window_seconds');
    const accountId = newId('acc');
    const liveKey = generateApiKey('live');
    const testKey = generateApiKey('test');
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

  /**
   * Adds credits in one statement, so a top-up never loses a charge billing makes meanwhile,
   * and stages `account.credits.added` in the same transaction (on_hold async searches resume,
   * held watch events are released): a top-up is never applied without its message.
   */
  async addCredits(accountId: string, amount: number): Promise<AdminCreditsResponse> {
    ensureStorable(amount, 'amount');
    try {
      const account = await this.prisma.$transaction(async (tx) => {
        const updated = await tx.account.update({
          where: { id: accountId, creditsRemaining: { lte: MAX_STORED_INT - amount } },
          data: { creditsRemaining: { increment: amount } },
          select: { creditsRemaining: true },
        });
        await this.outbox.stage(tx, Topics.AccountCreditsAdded, { v: 1, account_id: accountId, amount, credits_remaining: updated.creditsRemaining, added_at: new Date().toISOString() });
        return updated;
      });
      this.outbox.kick();
      return { credits_remaining: account.creditsRemaining };
    } catch (error) {
      if (!isRecordNotFound(error)) throw error;
      if (await this.prisma.account.count({ where: { id: accountId } })) {
        throw new ApiError('invalid_request', `amount: the balance may not exceed ${MAX_STORED_INT} credits.`, { param: 'amount' });
      }
      throw new ApiError('not_found', `No account ${accountId}.`);
    }
  }
}

function ensureStorable(value: number, param: string): void {
  if (value > MAX_STORED_INT) throw new ApiError('invalid_request', `${param}: must be at most ${MAX_STORED_INT}.`, { param });
}
