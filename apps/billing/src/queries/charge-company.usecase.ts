import { Injectable } from '@nestjs/common';
import { Topics, type BillingQueryRequested, type QueryResponded } from '@jobs/contracts';
import { askerGaveUpByNow, isUniqueViolation, PrismaService } from '@jobs/db';
import { NonRetriableError } from '@jobs/kafka';
import { newId } from '@jobs/observability';
import { OutboxRelay } from '@jobs/outbox';
import { ChargeExpired } from '../charges/account-charges.js';
import { BILLING_MARKS, queryChargeMark } from '../charges/billing-marks.js';

type CompanyChargeQuery = Extract<BillingQueryRequested.Value['query'], { kind: 'company.charge' }>;

/** What one company profile read costs: 1 credit every request, whatever was read before. */
export const COMPANY_PROFILE_CREDITS = 1;

/**
 * GET /companies/{domain}: 1 credit per request (no already-paid rule), written once per request
 * in one transaction: the idempotency mark, the account row lock, the balance, a ledger line
 * (`job_id` null: no job is returned) and the answer staged in the outbox. A test key is never
 * charged. A redelivered request finds its mark and does nothing; one whose asker stopped waiting
 * by the time the account is locked writes nothing (`ChargeExpired`, answered by the consumer).
 */
@Injectable()
export class ChargeCompanyUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: OutboxRelay,
  ) {}

  async execute(message: BillingQueryRequested.Value, query: CompanyChargeQuery): Promise<void> {
    try {
      await this.prisma.$transaction(async (tx) => {
        await tx.processedMessage.create({
          data: { consumerGroup: BILLING_MARKS, messageId: queryChargeMark(message.query_id) },
        });
        const [account] = await tx.$queryRaw<Array<{ credits_remaining: number }>>`
          SELECT credits_remaining FROM accounts WHERE id = ${message.account_id} FOR UPDATE`;
        if (!account) throw new NonRetriableError(`unknown account ${message.account_id}`);
        // the gateway answered internal_error by now: its caller's retry is a new request, charged again
        if (await askerGaveUpByNow(tx, message.answer_by)) throw new ChargeExpired(account.credits_remaining);
        const answer = (value: Omit<QueryResponded.Value, 'v' | 'query_id'>) =>
          this.outbox.stage(tx, Topics.QueryResponded, { v: 1, query_id: message.query_id, ...value });
        if (message.mode === 'test') {
          await answer({
            outcome: 'ok',
            result: { kind: 'company.charge', credits_charged: 0, credits_remaining: account.credits_remaining },
          });
          return;
        }
        if (account.credits_remaining < COMPANY_PROFILE_CREDITS) {
          await answer({
            outcome: 'error',
            error: {
              code: 'insufficient_credits',
              message: `A company profile costs ${COMPANY_PROFILE_CREDITS} credit.`,
              credits_needed: COMPANY_PROFILE_CREDITS,
            },
          });
          return;
        }
        await tx.account.update({
          where: { id: message.account_id },
          data: { creditsRemaining: { decrement: COMPANY_PROFILE_CREDITS } },
        });
        // dated by the database when written under the account's lock, as every charge's lines are:
        // an account's lines are dated in the order they commit
        await tx.$executeRaw`
          INSERT INTO ledger_entries (id, account_id, job_id, request_id, operation, credits, reason, created_at)
          VALUES (${newId('led')}, ${message.account_id}, NULL, ${message.query_id}, ${query.operation},
            ${COMPANY_PROFILE_CREDITS}, 'charged'::ledger_reason, clock_timestamp())`;
        await answer({
          outcome: 'ok',
          result: {
            kind: 'company.charge',
            credits_charged: COMPANY_PROFILE_CREDITS,
            credits_remaining: account.credits_remaining - COMPANY_PROFILE_CREDITS,
          },
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) return; // already charged and answered: a redelivery
      throw error;
    }
    this.outbox.kick();
  }
}
