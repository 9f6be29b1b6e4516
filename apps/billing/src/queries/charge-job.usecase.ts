import { Injectable } from '@nestjs/common';
import { planCharges } from '@jobs/billing-rules';
import { Topics, type BillingQueryRequested, type QueryResponded } from '@jobs/contracts';
import { isUniqueViolation, PrismaService } from '@jobs/db';
import { NonRetriableError } from '@jobs/kafka';
import { newId } from '@jobs/observability';
import { OutboxRelay } from '@jobs/outbox';

type JobChargeQuery = Extract<BillingQueryRequested.Value['query'], { kind: 'job.charge' }>;

/**
 * GET /jobs/{id}: 1 credit unless the account paid for the job before (then a free
 * `already_paid` ledger line). Same transaction discipline as a search page: idempotency
 * mark, paid set, ledger, balance and the answer (outbox) commit together, once per request.
 */
@Injectable()
export class ChargeJobUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: OutboxRelay,
  ) {}

  async execute(message: BillingQueryRequested.Value, query: JobChargeQuery): Promise<void> {
    try {
      await this.prisma.$transaction(async (tx) => {
        await tx.processedMessage.create({ data: { consumerGroup: 'billing', messageId: `charge:${message.query_id}` } });
        const [account] = await tx.$queryRaw<Array<{ credits_remaining: number }>>`
          SELECT credits_remaining FROM accounts WHERE id = ${message.account_id} FOR UPDATE`;
        if (!account) throw new NonRetriableError(`unknown account ${message.account_id}`);
        const paid = await tx.paidJob.count({ where: { accountId: message.account_id, jobId: query.job_id } });
        const plan = planCharges({
          jobIds: [query.job_id],
          alreadyPaid: new Set(paid > 0 ? [query.job_id] : []),
          creditsRemaining: account.credits_remaining,
          maxCredits: null,
          mode: message.mode,
        });
        const answer = (value: Omit<QueryResponded.Value, 'v' | 'query_id'>) =>
          this.outbox.stage(tx, Topics.QueryResponded, { v: 1, query_id: message.query_id, ...value });
        if (plan.kind === 'insufficient_credits') {
          await answer({ outcome: 'error', error: { code: 'insufficient_credits', message: 'Reading this job needs 1 credit.', credits_needed: plan.creditsNeeded } });
          return;
        }
        const line = plan.lines[0];
        if (line?.reason === 'charged') {
          await tx.paidJob.create({ data: { accountId: message.account_id, jobId: query.job_id } });
          await tx.account.update({ where: { id: message.account_id }, data: { creditsRemaining: { decrement: 1 } } });
        }
        if (line) {
          await tx.ledgerEntry.create({
            data: { id: newId('led'), accountId: message.account_id, jobId: query.job_id, requestId: message.query_id, operation: query.operation, credits: line.credits, reason: line.reason },
          });
        }
        await answer({
          outcome: 'ok',
          result: { kind: 'job.charge', reason: line?.reason ?? null, credits_charged: plan.creditsCharged, credits_remaining: account.credits_remaining - plan.creditsCharged },
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) return; // a redelivery: charged and answered already
      throw error;
    }
    this.outbox.kick();
  }
}
