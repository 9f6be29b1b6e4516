import { Injectable } from '@nestjs/common';
import {
  AccountIdSchema,
  type AdminAccountCreateRequest,
  type AdminAccountCreateResponse,
  type AdminCreditsResponse,
} from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { newId } from '@jobs/observability';
import { PLAN_DEFAULTS } from '@jobs/plans';
import { generateApiKey, hashApiKey } from '../auth/api-key.js';
import { ApiError } from '../http/api-error.js';
import { QueryClient } from '../messaging/query-client.js';

/** Credits and rate limits are PostgreSQL `integer` columns. */
export const MAX_STORED_INT = 2_147_483_647;

/**
 * Accounts, as the admin API of operator.md creates and tops them up. Billing owns the account
 * row (plan, rate limit, credits): it opens the account and applies top-ups, asked over Kafka;
 * the gateway owns the API keys it issues for the account.
 */
@Injectable()
export class ManageAccountsUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly queries: QueryClient,
  ) {}

  async createAccount(command: AdminAccountCreateRequest): Promise<AdminAccountCreateResponse> {
    ensureStorable(command.credits, 'credits');
    const defaults = PLAN_DEFAULTS[command.plan].rateLimit;
    const rateLimit = command.rate_limit ?? { limit: defaults.limit, window_seconds: defaults.windowSeconds };
    ensureStorable(rateLimit.limit, 'rate_limit.limit');
    ensureStorable(rateLimit.window_seconds, 'rate_limit.window_seconds');
    const accountId = newId('acc');
    await this.queries.askBilling({
      v: 1,
      query_id: newId('req'),
      account_id: accountId,
      mode: 'live',
      query: { kind: 'account.open', plan: command.plan, credits: command.credits, rate_limit: rateLimit },
    });
    const liveKey = generateApiKey('live');
    const testKey = generateApiKey('test');
    await this.prisma.apiKey.createMany({
      data: [
        { id: newId('key'), accountId, mode: 'live', keyHash: hashApiKey(liveKey), keyPrefix: liveKey.slice(0, 12) },
        { id: newId('key'), accountId, mode: 'test', keyHash: hashApiKey(testKey), keyPrefix: testKey.slice(0, 12) },
      ],
    });
    return { account_id: accountId, live_key: liveKey, test_key: testKey };
  }

  /**
   * Billing adds the credits and stages `account.credits.added` in one transaction (on_hold async
   * searches resume, held watch events are released): a top-up is never applied without its
   * message. An unknown account is 404, a balance past the column's range 400.
   */
  async addCredits(accountId: string, amount: number): Promise<AdminCreditsResponse> {
    ensureStorable(amount, 'amount');
    // an id no account can have is answered here: billing's topic carries account ids only
    if (!AccountIdSchema.safeParse(accountId).success) throw new ApiError('not_found', `No account ${accountId}.`);
    const { credits_remaining } = await this.queries.askBilling({
      v: 1,
      query_id: newId('req'),
      account_id: accountId,
      mode: 'live',
      query: { kind: 'credits.add', amount },
    });
    return { credits_remaining };
  }
}

function ensureStorable(value: number, param: string): void {
  if (value > MAX_STORED_INT)
    throw new ApiError('invalid_request', `${param}: must be at most ${MAX_STORED_INT}.`, { param });
}
