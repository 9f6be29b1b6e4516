import { Injectable } from '@nestjs/common';
import { Topics, type BillingChargeRequested, type SearchResponded } from '@jobs/contracts';
import { planCharges } from '@jobs/billing-rules';
import { isUniqueViolation, PrismaService } from '@jobs/db';
import { NonRetriableError } from '@jobs/kafka';
import { newId } from '@jobs/observability';
import { OutboxRelay } from '@jobs/outbox';

const CONSUMER = 'billing';

/**
 * Charges one page of a search and answers the gateway. Everything happens in one
 * transaction: the idempotency mark, the paid-jobs set, the ledger lines, the balance and the
 * answer (staged in the outbox). A redelivered request finds its mark and does nothing, so a
 * charge is written exactly once however often Kafka delivers it or billing restarts.
 */
@Injectable()
export class ChargeSearchPageUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: OutboxRelay,
  ) {}

  async execute(message: BillingChargeRequested.Value): Promise<void> {
    try {
      await this.prisma.$transaction(async (tx) => {
        await tx.processedMessage.create({ data: { consumerGroup: CONSUMER, messageId: `charge:${message.search_id}` } });
        // Row lock: one account's charges serialize, whichever billing replica runs them.
        const [account] = await tx.$queryRaw<Array<{ credits_remaining: number }>>`
          SELECT credits_remaining FROM accounts WHERE id = ${message.account_id} FOR UPDATE`;
        if (!account) throw new NonRetriableError(`unknown account ${message.account_id}`);
        const jobIds = message.response.data.map((job) => job.id);
        const paid = await tx.paidJob.findMany({ where: { accountId: message.account_id, jobId: { in: jobIds } }, select: { jobId: true } });
        const plan = planCharges({
          jobIds,
          alreadyPaid: new Set(paid.map((p) => p.jobId)),
          creditsRemaining: account.credits_remaining,
          maxCredits: message.max_credits,
          mode: message.mode,
        });
        const reply = (value: Omit<SearchResponded.Value, 'v' | 'search_id' | 'request_id'>) =>
          this.outbox.stage(tx, Topics.SearchResponded, { v: 1, search_id: message.search_id, request_id: message.request_id, ...value });

        if (plan.kind === 'insufficient_credits') {
          await reply({
            outcome: 'error',
            error: { code: 'insufficient_credits', message: `This search needs ${plan.creditsNeeded} more credits.`, credits_needed: plan.creditsNeeded },
            credits_charged: 0,
            credits_remaining: account.credits_remaining,
          });
          return;
        }
        const charged = plan.lines.filter((l) => l.reason === 'charged');
        if (charged.length > 0) {
          await tx.paidJob.createMany({ data: charged.map((l) => ({ accountId: message.account_id, jobId: l.jobId })) });
          await tx.account.update({ where: { id: message.account_id }, data: { creditsRemaining: { decrement: plan.creditsCharged } } });
        }
        if (plan.lines.length > 0) {
          await tx.ledgerEntry.createMany({
            data: plan.lines.map((l) => ({
              id: newId('led'),
              accountId: message.account_id,
              jobId: l.jobId,
              requestId: message.request_id,
              operation: message.operation,
              credits: l.credits,
              reason: l.reason,
            })),
          });
        }
        const creditsRemaining = account.credits_remaining - plan.creditsCharged;
        const returned = new Set(message.mode === 'test' ? jobIds : plan.lines.map((l) => l.jobId));
        const data = message.response.data.filter((job) => returned.has(job.id));
        await reply({
          outcome: 'ok',
          response: {
            data,
            next_cursor: message.response.next_cursor,
            metadata: { ...message.response.metadata, credits_charged: plan.creditsCharged, jobs_already_paid: plan.alreadyPaid, credits_remaining: creditsRemaining },
          },
          credits_charged: plan.creditsCharged,
          credits_remaining: creditsRemaining,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) return; // already charged and answered: a redelivery
      throw error;
    }
    this.outbox.kick();
  }
}
