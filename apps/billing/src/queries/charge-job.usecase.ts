import { Injectable } from '@nestjs/common';
import { Topics, type BillingQueryRequested, type QueryResponded } from '@jobs/contracts';
import { AccountCharges } from '../charges/account-charges.js';
import { queryChargeMark } from '../charges/billing-marks.js';

type JobChargeQuery = Extract<BillingQueryRequested.Value['query'], { kind: 'job.charge' }>;

/**
 * GET /jobs/{id}: 1 credit unless the account paid for the job before, exactly once per request;
 * never after the gateway stopped waiting (`ChargeExpired`, answered by the consumer).
 */
@Injectable()
export class ChargeJobUseCase {
  constructor(private readonly charges: AccountCharges) {}

  async execute(message: BillingQueryRequested.Value, query: JobChargeQuery): Promise<void> {
    await this.charges.charge(
      {
        chargeKey: queryChargeMark(message.query_id),
        kind: 'job',
        accountId: message.account_id,
        requestId: message.query_id,
        operation: query.operation,
        jobIds: [query.job_id],
        maxCredits: null,
        mode: message.mode,
        answerBy: message.answer_by,
      },
      async (_tx, plan, creditsRemaining, stage) => {
        const answer = (value: Omit<QueryResponded.Value, 'v' | 'query_id'>) =>
          stage(Topics.QueryResponded, { v: 1, query_id: message.query_id, ...value });
        if (plan.kind === 'insufficient_credits') {
          await answer({
            outcome: 'error',
            error: {
              code: 'insufficient_credits',
              message: 'Reading this job needs 1 credit.',
              credits_needed: plan.creditsNeeded,
            },
          });
          return;
        }
        await answer({
          outcome: 'ok',
          result: {
            kind: 'job.charge',
            reason: plan.lines[0]?.reason ?? null,
            credits_charged: plan.creditsCharged,
            credits_remaining: creditsRemaining,
          },
        });
      },
    );
  }
}
