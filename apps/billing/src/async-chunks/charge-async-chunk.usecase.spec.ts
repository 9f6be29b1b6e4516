import type { ChargePlan } from '@jobs/billing-rules';
import { AsyncChunkCharged, examples, type AsyncChunkChargeRequested } from '@jobs/contracts';
import type { AccountCharges, Answer, ChargeRequest, StageAnswer } from '../charges/account-charges.js';
import { ChargeAsyncChunkUseCase } from './charge-async-chunk.usecase.js';

/** Billing with the real partial rules; the transaction, the ledger sum and the answer's staging faked. */
function billing(balance: number, spentBySearch = 0, paidBefore: string[] = []) {
  const staged: unknown[] = [];
  const requests: ChargeRequest[] = [];
  const charges = {
    async charge(request: ChargeRequest, answer: Answer) {
      requests.push(request);
      const maxCredits = request.maxCredits === null ? null : request.maxCredits - spentBySearch;
      const plan: ChargePlan = request.rules!({
        jobIds: request.jobIds,
        alreadyPaid: new Set(paidBefore),
        creditsRemaining: balance,
        maxCredits,
        mode: request.mode,
      });
      const stage: StageAnswer = async (_topic, value) => void staged.push(value);
      await answer({} as never, plan, balance - (plan.kind === 'ok' ? plan.creditsCharged : 0), stage);
    },
  } as unknown as AccountCharges;
  return {
    useCase: new ChargeAsyncChunkUseCase(charges),
    requests,
    answer: () => AsyncChunkCharged.ValueSchema.parse(staged[0]),
  };
}

const request = (patch: Partial<AsyncChunkChargeRequested.Value> = {}): AsyncChunkChargeRequested.Value => ({
  ...(examples.asyncChunkChargeRequested() as AsyncChunkChargeRequested.Value),
  batch: 4,
  job_ids: ['job_a', 'job_b', 'job_c'],
  ...patch,
});

describe('ChargeAsyncChunkUseCase', () => {
  it(
    'charges once per batch (mark async:<search>:<batch>) under ' + 'the search id, capped across the whole search',
    async () => {
      const { useCase, requests, answer } = billing(100);
      await useCase.execute(request());
      expect(requests[0]).toMatchObject({
        chargeKey: 'async:srch_demo:4',
        requestId: 'srch_demo',
        operation: 'POST /v1/searches',
        capAcrossParts: true,
      });
      expect(answer()).toMatchObject({ batch: 4, stopped: null, credits_charged: 3, credits_remaining: 97 });
    },
  );

  it('answers the collected prefix and that credits stopped it', async () => {
    const { useCase, answer } = billing(1, 0, ['job_b']);
    await useCase.execute(request());
    expect(answer().collected).toEqual([
      { job_id: 'job_a', reason: 'charged' },
      { job_id: 'job_b', reason: 'already_paid' },
    ]);
    expect(answer()).toMatchObject({ stopped: 'credits', credits_charged: 1, credits_remaining: 0 });
  });

  it('stops at what max_credits leaves after the earlier batches of the search', async () => {
    const { useCase, answer } = billing(100, 4);
    await useCase.execute(request({ max_credits: 5 }));
    expect(answer()).toMatchObject({ stopped: 'max_credits', credits_charged: 1 });
  });

  it('refuses a test key for good (never charged)', async () => {
    const { useCase } = billing(100);
    await expect(useCase.execute(request({ mode: 'test' }))).rejects.toThrow('never charged');
  });
});
