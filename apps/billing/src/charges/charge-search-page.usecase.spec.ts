import { planCharges, type ChargePlan } from '@jobs/billing-rules';
import { examples, type BillingPageChargeRequested, type SearchPageCharged } from '@jobs/contracts';
import { SearchCursorCodec } from '@jobs/cursors';
import {
  ChargeExpired,
  type AccountCharges,
  type ChargeRequest,
  type StageAnswer,
  type StagedAnswer,
} from './account-charges.js';
import { ChargeSearchPageUseCase } from './charge-search-page.usecase.js';

const codec = new SearchCursorCodec('a-test-secret-of-length');
const jobIds = ['job_a', 'job_b', 'job_c', 'job_d', 'job_e'];

/**
 * Billing with the real charge rules and cursor codec, the transaction and the answer's staging
 * faked; `chargedBefore`: the page's charge is marked done (a redelivery).
 */
function billing(paidBefore: string[] = [], credits = 100, { chargedBefore = false } = {}) {
  const staged: unknown[] = [];
  const published: unknown[] = [];
  const charged: ChargeRequest[] = [];
  const charges = {
    async chargeWithoutLock(request: ChargeRequest, answer: StagedAnswer) {
      if (chargedBefore) return;
      if (request.answerBy && Date.parse(request.answerBy) < Date.now()) throw new ChargeExpired(credits);
      charged.push(request);
      const plan: ChargePlan = planCharges({
        jobIds: request.jobIds,
        alreadyPaid: new Set(paidBefore),
        creditsRemaining: credits,
        maxCredits: request.maxCredits,
        mode: request.mode,
      });
      const stage: StageAnswer = async (_topic, value) => void staged.push(value);
      await answer(plan, credits - (plan.kind === 'ok' ? plan.creditsCharged : 0), stage);
    },
  } as unknown as AccountCharges;
  const publisher = { publish: async (_topic: unknown, value: unknown) => void published.push(value) };
  const logger = { warn: () => undefined };
  const useCase = new ChargeSearchPageUseCase(charges, codec, publisher as never, logger as never);
  return {
    useCase,
    charged,
    staged,
    published,
    answer: () => (staged[0] as SearchPageCharged.Value).charge!,
    reply: () => staged[0] as SearchPageCharged.Value,
  };
}

function page(
  maxCredits: number | null,
  continuation: BillingPageChargeRequested.Value['continuation'],
): BillingPageChargeRequested.Value {
  return { ...examples.billingPageChargeRequested(), max_credits: maxCredits, job_ids: jobIds, continuation };
}

const decode = (cursor: string | null) => (cursor ? codec.read('acc_demo', cursor) : null);

describe('ChargeSearchPageUseCase', () => {
  it('cuts the page at max_credits and points the next cursor right after the last job returned', async () => {
    const { useCase, answer } = billing();
    await useCase.execute(page(3, { set: 'req_123', fingerprint: 'fp', page_start: 10, set_size: 30, more: false }));
    expect(answer().returned_job_ids).toEqual(['job_a', 'job_b', 'job_c']);
    expect(decode(answer().next_cursor)).toEqual({ set: 'req_123', offset: 13, fingerprint: 'fp' });
  });

  it('gives a cursor to a first page cut by the cap even when the whole set fits in it', async () => {
    const { useCase, answer } = billing(['job_b']);
    await useCase.execute(page(1, { set: 'req_123', fingerprint: 'fp', page_start: 0, set_size: 5, more: false }));
    expect(answer().returned_job_ids).toEqual(['job_a', 'job_b']);
    expect(decode(answer().next_cursor)?.offset).toBe(2);
  });

  it('has no next cursor after the last page, or without a continuation', async () => {
    const last = billing();
    await last.useCase.execute(
      page(null, { set: 'req_123', fingerprint: 'fp', page_start: 25, set_size: 30, more: false }),
    );
    expect(last.answer().next_cursor).toBeNull();
    const single = billing();
    await single.useCase.execute(page(null, null));
    expect(single.answer().returned_job_ids).toEqual(jobIds);
    expect(single.answer().next_cursor).toBeNull();
  });

  it('answers which jobs are returned, in page order, with the credits; or the error, without a charge', async () => {
    const { useCase, reply } = billing(['job_c']);
    await useCase.execute(page(null, null));
    expect(reply()).toMatchObject({
      outcome: 'ok',
      search_id: 'req_123',
      credits_charged: 4,
      credits_remaining: 96,
      charge: { returned_job_ids: jobIds, jobs_already_paid: 1 },
    });
    const poor = billing([], 2);
    await poor.useCase.execute(page(null, null));
    expect(poor.reply()).toMatchObject({
      outcome: 'error',
      error: { code: 'insufficient_credits', credits_needed: 3 },
      credits_charged: 0,
      credits_remaining: 2,
    });
    expect(poor.reply().charge).toBeUndefined();
  });

  it('answers expired with the balance when the charge expired before it was made', async () => {
    const late = billing([], 7);
    await late.useCase.execute({ ...page(null, null), answer_by: new Date(Date.now() - 1).toISOString() });
    expect(late.charged).toEqual([]);
    expect(late.staged).toEqual([]);
    expect(late.published).toEqual([
      {
        v: 1,
        search_id: 'req_123',
        request_id: 'req_123',
        outcome: 'expired',
        credits_charged: 0,
        credits_remaining: 7,
      },
    ]);

    const inTime = billing([], 7);
    const answerBy = new Date(Date.now() + 60_000).toISOString();
    await inTime.useCase.execute({ ...page(null, null), answer_by: answerBy });
    expect(inTime.charged.map((request) => request.answerBy)).toEqual([answerBy]);
    expect(inTime.reply()).toMatchObject({ outcome: 'ok', credits_charged: 5 });
    expect(inTime.published).toEqual([]);
  });

  it('answers nothing more for a page charged in time and delivered again after answer_by', async () => {
    const redelivered = billing([], 7, { chargedBefore: true });
    await redelivered.useCase.execute({ ...page(null, null), answer_by: new Date(Date.now() - 1).toISOString() });
    expect(redelivered.staged).toEqual([]);
    expect(redelivered.published).toEqual([]);
  });
});
