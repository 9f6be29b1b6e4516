import { Injectable } from '@nestjs/common';
import { planPartialCharges, type PartialChargePlan } from '@jobs/billing-rules';
import { Topics, type AsyncChunkChargeRequested } from '@jobs/contracts';
import { NonRetriableError } from '@jobs/kafka';
import { AccountCharges } from '../charges/account-charges.js';

/**
 * Charges the jobs one chunk brought to an async search as they are collected (rule 4), in
 * AccountCharges' one transaction with the idempotency mark `async:<search>:<batch>`: the
 * longest prefix the balance and the search's remaining `max_credits` allow (counted over the
 * search's own ledger lines, request id = search id), already-paid jobs free, and stages the
 * answer (`async.chunk.charged`) in the same transaction. A redelivery charges nothing again and
 * is answered again with what was charged (the search asks again when an answer never came).
 */
@Injectable()
export class ChargeAsyncChunkUseCase {
  constructor(private readonly charges: AccountCharges) {}

  async execute(message: AsyncChunkChargeRequested.Value): Promise<void> {
    // test keys collect the sandbox's data in the orchestrator and never reach billing
    if (message.mode === 'test')
      throw new NonRetriableError(`async search ${message.search_id}: test keys are never charged`);
    await this.charges.charge(
      {
        chargeKey: `async:${message.search_id}:${message.batch}`,
        kind: 'async',
        accountId: message.account_id,
        requestId: message.search_id,
        operation: message.operation,
        jobIds: message.job_ids,
        maxCredits: message.max_credits,
        mode: message.mode,
        rules: planPartialCharges,
        capAcrossParts: true,
        answerAgain: true,
      },
      async (_tx, plan, creditsRemaining, stage) => {
        const partial = plan as PartialChargePlan;
        await stage(Topics.AsyncChunkCharged, {
          v: 1,
          search_id: message.search_id,
          account_id: message.account_id,
          batch: message.batch,
          collected: partial.lines.map((line) => ({ job_id: line.jobId, reason: line.reason })),
          stopped: partial.stopped,
          credits_charged: partial.creditsCharged,
          credits_remaining: creditsRemaining,
        });
      },
    );
  }
}
