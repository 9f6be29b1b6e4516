import { examples, type SearchPageCharged, type SearchPageGathered } from '@jobs/contracts';
import { SearchReplies } from './search-replies.js';
import { joinSearchAnswer } from './search-answer.js';

const ids = ['job_a', 'job_b', 'job_c'];
function page(): SearchPageGathered.Value {
  const base = examples.searchPageGathered();
  const data = ids.map((id, i) => ({ ...examples.job(), id, salary: i === 2 ? null : examples.job().salary }));
  return { ...base, response: { data, metadata: base.response.metadata } };
}
function charged(returned = ids): SearchPageCharged.Value {
  return {
    ...examples.searchPageCharged(),
    charge: { returned_job_ids: returned, next_cursor: 'cur_next', jobs_already_paid: 1 },
    credits_charged: returned.length - 1,
    credits_remaining: 40,
  };
}
const { charge: _charge, ...withoutCharge } = examples.searchPageCharged();
const insufficient: SearchPageCharged.Value = {
  ...withoutCharge,
  outcome: 'error',
  error: { code: 'insufficient_credits', message: 'This search needs 2 more credits.', credits_needed: 2 },
  credits_charged: 0,
  credits_remaining: 1,
};

describe('joinSearchAnswer', () => {
  it('answers the page with billing’s cursor and credits', () => {
    const answer = joinSearchAnswer(charged(), page())!;
    expect(answer.outcome).toBe('ok');
    expect(answer.response!.data.map((job) => job.id)).toEqual(ids);
    expect(answer.response!.next_cursor).toBe('cur_next');
    expect(answer.response!.metadata).toMatchObject({
      credits_charged: 2,
      jobs_already_paid: 1,
      credits_remaining: 40,
      field_coverage: expect.objectContaining({ salary: 0.667 }),
    });
    expect([answer.credits_charged, answer.credits_remaining]).toEqual([2, 40]);
  });

  it('returns only the jobs billing kept, and describes their coverage', () => {
    const answer = joinSearchAnswer(charged(['job_a', 'job_b']), page())!;
    expect(answer.response!.data.map((job) => job.id)).toEqual(['job_a', 'job_b']);
    expect(answer.response!.metadata.field_coverage['salary']).toBe(1);
  });

  it('answers billing’s error without the page, and waits for the page of an ok outcome', () => {
    expect(joinSearchAnswer(insufficient, undefined)).toMatchObject({
      outcome: 'error',
      error: { code: 'insufficient_credits', credits_needed: 2 },
      credits_remaining: 1,
    });
    expect(joinSearchAnswer(charged(), undefined)).toBeNull();
  });
});

describe('SearchReplies', () => {
  it('settles a waiting search once both halves are in, whichever comes first', async () => {
    for (const order of [
      ['page', 'charge'],
      ['charge', 'page'],
    ] as const) {
      const replies = new SearchReplies();
      const answer = replies.wait('req_123', 1000);
      for (const half of order) {
        const settled = half === 'page' ? replies.settlePage(page()) : replies.settleCharge(charged());
        expect(settled).toBe(half === order[1]);
      }
      expect((await answer).response!.data).toHaveLength(3);
      expect(replies.pending).toBe(0);
    }
  });

  it('settles on billing’s error alone', async () => {
    const replies = new SearchReplies();
    const answer = replies.wait('req_123', 1000);
    expect(replies.settleCharge(insufficient)).toBe(true);
    expect((await answer).error?.code).toBe('insufficient_credits');
  });

  it('holds nothing for a search it does not wait for, nor after it gave up or was cancelled', async () => {
    const replies = new SearchReplies();
    const held = () => (replies as unknown as { halves: Map<string, unknown> }).halves.size;
    expect(replies.settlePage(page())).toBe(false);
    expect(held()).toBe(0);
    const timedOut = replies.wait('req_123', 10);
    expect(replies.settlePage(page())).toBe(false);
    expect(held()).toBe(1);
    await expect(timedOut).rejects.toThrow('no answer');
    expect(held()).toBe(0);
    // the page held before the timeout is gone: a late charge settles nothing and holds nothing
    expect(replies.settleCharge(charged())).toBe(false);
    expect(held()).toBe(0);
    void replies.wait('req_123', 1000);
    expect(replies.settleCharge(charged())).toBe(false);
    expect(held()).toBe(1);
    replies.cancel('req_123');
    expect(held()).toBe(0);
  });
});
