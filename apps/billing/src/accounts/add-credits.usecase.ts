import { Injectable } from '@nestjs/common';
import { Topics, type BillingQueryRequested, type QueryResponded } from '@jobs/contracts';
import { askerGaveUpByNow, isUniqueViolation, PrismaService } from '@jobs/db';
import { OutboxRelay } from '@jobs/outbox';
import { ChargeExpired } from '../charges/account-charges.js';
import { BILLING_MARKS, topUpMark } from '../charges/billing-marks.js';
import { stageCreditsRaised } from './credits-raised.js';

type CreditsAddQuery = Extract<BillingQueryRequested.Value['query'], { kind: 'credits.add' }>;

/** Credits are a PostgreSQL `integer` column. */
export const MAX_STORED_INT = 2_147_483_647;

/**
 * Admin `POST /admin/accounts/{id}/credits`: adds credits in one statement (a top-up never loses
 * a charge made meanwhile) and stages `account.credits.added` (on_hold async searches resume),
 * a `release_held` for the account's held watch events and the answer in the same transaction as
 * the message's mark: a top-up is applied and announced exactly once, however often its message is delivered, and
 * never after the admin API stopped waiting (`ChargeExpired`, answered by the consumer).
 */
@Injectable()
export class AddCreditsUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: OutboxRelay,
  ) {}

  async execute(message: BillingQueryRequested.Value, query: CreditsAddQuery): Promise<void> {
    const accountId = message.account_id;
    try {
      await this.prisma.$transaction(async (tx) => {
        await tx.processedMessage.create({
          data: { consumerGroup: BILLING_MARKS, messageId: topUpMark(message.query_id) },
        });
        const answer = (value: Omit<QueryResponded.Value, 'v' | 'query_id'>) =>
          this.outbox.stage(tx, Topics.QueryResponded, { v: 1, query_id: message.query_id, ...value });
        const [updated] = await tx.$queryRaw<Array<{ credits_remaining: number }>>`
          UPDATE accounts SET credits_remaining = credits_remaining + ${query.amount}::int, updated_at = now()
          WHERE id = ${accountId} AND credits_remaining <= ${MAX_STORED_INT - query.amount}::int
          RETURNING credits_remaining`;
        if (!updated) {
          const exists = (await tx.account.count({ where: { id: accountId } })) > 0;
          await answer({
            outcome: 'error',
            error: exists
              ? {
                  code: 'invalid_request',
                  message: `amount: the balance may not exceed ${MAX_STORED_INT} credits.`,
                  param: 'amount',
                }
              : { code: 'not_found', message: `No account ${accountId}.` },
          });
          return;
        }
        const creditsRemaining = updated.credits_remaining;
        // the admin API answered internal_error by now: a retried top-up would be applied twice
        if (await askerGaveUpByNow(tx, message.answer_by)) throw new ChargeExpired(creditsRemaining);
        await stageCreditsRaised(
          this.outbox,
          tx,
          [{ accountId, amount: query.amount, creditsRemaining }],
          new Date(),
          'credits_added',
        );
        await answer({ outcome: 'ok', result: { kind: 'credits.add', credits_remaining: creditsRemaining } });
      });
    } catch (error) {
      if (isUniqueViolation(error)) return; // applied and answered already: a redelivery
      throw error;
    }
    this.outbox.kick();
  }
}
