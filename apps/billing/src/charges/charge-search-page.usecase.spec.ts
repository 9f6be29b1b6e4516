import { planCharges, type ChargePlan } from '@jobs/billing-rules';
import { examples, SearchCursorPositionSchema, searchCursorScope, type BillingChargeRequested, type Job } from '@jobs/contracts';
import { CursorCodec } from '@jobs/cursors';
import type { AccountCharges, Answer, ChargeRequest, StageAnswer } from './account-charges.js';
import { ChargeSearchPageUseCase } from './charge-search-page.usecase.js';

const codec = new CursorCodec('a-test-secret-of-length');
const jobs: Job[] = ['job_a', 'job_b', 'job_c', 'job_d', 'job_e'].map((id) => ({ ...examples.job(), id }));

/** Billing with the real charge rules and cursor codec, the transaction and the answer's staging faked. */
function billing(paidBefore: string[] = []) {
  const staged: unknown[] = [];
  const charges = {
    async charge(request: ChargeRequest, answer: Answer) {
      const plan: ChargePlan = planCharges({ jobIds: request.jobIds, alreadyPaid: new Set(paidBefore), creditsRemaining: 100, maxCredits: request.maxCredits, mode: request.mode });
      const stage: StageAnswer = async (_topic, value) => void staged.push(value);
      await answer({} as never, plan, 100 - (plan.kind === 'ok' ? plan.creditsCharged : 0), stage);
    },
  } as unknown as AccountCharges;
  const useCase = new ChargeSearchPageUseCase(charges, codec);
  return { useCase, answer: () => staged[0] as { response: { data: Job[]; next_cursor: string | null } } };
}

function page(maxCredits: number | null, continuation: BillingChargeRequested.Value['continuation']): BillingChargeRequested.Value {
  const base = examples.billingChargeRequested();
  return { ...base, max_credits: maxCredits, response: { ...base.response, data: jobs }, continuation };
}

const decode = (cursor: string | null) => (cursor ? SearchCursorPositionSchema.parse(codec.decode(searchCursorScope('acc_demo'), cursor)) : null);

describe('ChargeSearchPageUseCase', () => {
  it('cuts the page at max_credits and points the next cursor right after the last job returned', async () => {
    const { useCase, answer } = billing();
    await useCase.execute(page(3, { set: 'req_123', fingerprint: 'fp', page_start: 10, set_size: 30, more: false }));
    expect(answer().response.data.map((j) => j.id)).toEqual(['job_a', 'job_b', 'job_c']);
    expect(decode(answer().response.next_cursor)).toEqual({ set: 'req_123', offset: 13, fingerprint: 'fp' });
  });

  it('gives a cursor to a first page cut by the cap even when the whole set fits in it', async () => {
    const { useCase, answer } = billing(['job_b']);
    await useCase.execute(page(1, { set: 'req_123', fingerprint: 'fp', page_start: 0, set_size: 5, more: false }));
    expect(answer().response.data.map((j) => j.id)).toEqual(['job_a', 'job_b']);
    expect(decode(answer().response.next_cursor)?.offset).toBe(2);
  });

  it('has no next cursor after the last page, or without a continuation', async () => {
    const last = billing();
    await last.useCase.execute(page(null, { set: 'req_123', fingerprint: 'fp', page_start: 25, set_size: 30, more: false }));
    expect(last.answer().response.next_cursor).toBeNull();
    const single = billing();
    await single.useCase.execute(page(null, null));
    expect(single.answer().response.data).toHaveLength(5);
    expect(single.answer().response.next_cursor).toBeNull();
  });
});
