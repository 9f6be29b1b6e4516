import { Injectable } from '@nestjs/common';
import { planCharges, type ChargeInput, type ChargePlan } from '@jobs/billing-rules';
import { isUniqueViolation, PrismaService, type Prisma } from '@jobs/db';
import { NonRetriableError } from '@jobs/kafka';
import { newId } from '@jobs/observability';
import { OutboxRelay } from '@jobs/outbox';
import { ChargeMetrics, type ChargeKind } from './charge-metrics.js';

export interface ChargeRequest {
  /** Idempotency key of the charge: it is written once, however often the request arrives. */
  chargeKey: string;
  /** What is charged, for the metrics. */
  kind: ChargeKind;
  accountId: string;
  requestId: string;
  operation: string;
  jobIds: readonly string[];
  maxCredits: number | null;
  mode: ChargeInput['mode'];
  /** The rules to apply; default `planCharges` (one page: all of it, or 402). */
  rules?: (input: ChargeInput) => ChargePlan;
  /**
   * `maxCredits` caps the whole request, charged in several parts (an async search): the credits
   * already charged under `requestId` are counted in the transaction and taken off the cap.
   */
  capAcrossParts?: boolean;
}

/** What a caller answers with, inside the same transaction as the charge. */
export type Answer = (tx: Prisma.TransactionClient, plan: ChargePlan, creditsRemaining: number) => Promise<void>;

/**
 * The one way billing charges: in a single transaction it writes the idempotency mark, locks
 * the account row (one account's charges serialize across replicas), applies the billing
 * rules to the paid-jobs set, writes paid jobs, ledger lines and the balance, and stages the
 * caller's answer in the outbox. A redelivered request finds its mark and does nothing.
 */
@Injectable()
export class AccountCharges {
  private readonly metrics = new ChargeMetrics();

  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: OutboxRelay,
  ) {}

  async charge(request: ChargeRequest, answer: Answer): Promise<void> {
    let decided: ChargePlan | undefined;
    try {
      await this.prisma.$transaction(async (tx) => {
        await tx.processedMessage.create({ data: { consumerGroup: 'billing', messageId: request.chargeKey } });
        const [account] = await tx.$queryRaw<Array<{ credits_remaining: number }>>`
          SELECT credits_remaining FROM accounts WHERE id = ${request.accountId} FOR UPDATE`;
        if (!account) throw new NonRetriableError(`unknown account ${request.accountId}`);
        const paid = await tx.paidJob.findMany({ where: { accountId: request.accountId, jobId: { in: [...request.jobIds] } }, select: { jobId: true } });
        const plan = (request.rules ?? planCharges)({
          jobIds: request.jobIds,
          alreadyPaid: new Set(paid.map((p) => p.jobId)),
          creditsRemaining: account.credits_remaining,
          maxCredits: request.capAcrossParts ? await this.capLeft(tx, request) : request.maxCredits,
          mode: request.mode,
        });
        if (plan.kind === 'ok') await this.record(tx, request, plan);
        decided = plan;
        await answer(tx, plan, account.credits_remaining - (plan.kind === 'ok' ? plan.creditsCharged : 0));
      });
    } catch (error) {
      if (isUniqueViolation(error)) return; // already charged and answered: a redelivery
      throw error;
    }
    if (decided) this.metrics.record(request.kind, decided);
    this.outbox.kick();
  }

  /** What a request charged in parts may still charge: its cap less the credits its ledger lines hold. */
  private async capLeft(tx: Prisma.TransactionClient, request: ChargeRequest): Promise<number | null> {
    if (request.maxCredits === null) return null;
    const spent = await tx.ledgerEntry.aggregate({ where: { accountId: request.accountId, requestId: request.requestId }, _sum: { credits: true } });
    return Math.max(0, request.maxCredits - (spent._sum.credits ?? 0));
  }

  private async record(tx: Prisma.TransactionClient, request: ChargeRequest, plan: Extract<ChargePlan, { kind: 'ok' }>): Promise<void> {
    const charged = plan.lines.filter((l) => l.reason === 'charged');
    if (charged.length > 0) {
      await tx.paidJob.createMany({ data: charged.map((l) => ({ accountId: request.accountId, jobId: l.jobId })) });
      await tx.account.update({ where: { id: request.accountId }, data: { creditsRemaining: { decrement: plan.creditsCharged } } });
    }
    if (plan.lines.length > 0) {
      await tx.ledgerEntry.createMany({
        data: plan.lines.map((l) => ({
          id: newId('led'),
          accountId: request.accountId,
          jobId: l.jobId,
          requestId: request.requestId,
          operation: request.operation,
          credits: l.credits,
          reason: l.reason,
        })),
      });
    }
  }
}
