import { planPartialCharges } from './partial-charge.js';

const base = { alreadyPaid: new Set<string>(), creditsRemaining: 100, maxCredits: null, mode: 'live' as const };
const ids = (plan: ReturnType<typeof planPartialCharges>) => plan.lines.map((l) => `${l.jobId}:${l.reason}`);

describe('planPartialCharges', () => {
  it('collects every job when the account can pay: one credit per new job, each job once', () => {
    const plan = planPartialCharges({ ...base, jobIds: ['job_a', 'job_b', 'job_a'] });
    expect(ids(plan)).toEqual(['job_a:charged', 'job_b:charged']);
    expect(plan).toMatchObject({ creditsCharged: 2, alreadyPaid: 0, stopped: null });
  });

  it('collects what the balance pays for and stops at the first job it cannot pay: never a 402', () => {
    const plan = planPartialCharges({ ...base, jobIds: ['job_a', 'job_b', 'job_c', 'job_d'], creditsRemaining: 2 });
    expect(ids(plan)).toEqual(['job_a:charged', 'job_b:charged']);
    expect(plan).toMatchObject({ creditsCharged: 2, stopped: 'credits' });
  });

  it('collects already-paid jobs for free, before and after new ones, until the stop', () => {
    const plan = planPartialCharges({
      ...base,
      jobIds: ['job_p', 'job_a', 'job_q', 'job_b', 'job_r'],
      alreadyPaid: new Set(['job_p', 'job_q', 'job_r']),
      creditsRemaining: 1,
    });
    expect(ids(plan)).toEqual(['job_p:already_paid', 'job_a:charged', 'job_q:already_paid']);
    expect(plan).toMatchObject({ creditsCharged: 1, alreadyPaid: 2, stopped: 'credits' });
  });

  it('an account at zero collects only the already-paid prefix', () => {
    const plan = planPartialCharges({
      ...base,
      jobIds: ['job_p', 'job_a'],
      alreadyPaid: new Set(['job_p']),
      creditsRemaining: 0,
    });
    expect(ids(plan)).toEqual(['job_p:already_paid']);
    expect(plan.stopped).toBe('credits');
  });

  it('stops at what max_credits still allows; the cap wins over the balance when both bind', () => {
    expect(planPartialCharges({ ...base, jobIds: ['job_a', 'job_b', 'job_c'], maxCredits: 2 })).toMatchObject({
      creditsCharged: 2,
      stopped: 'max_credits',
    });
    expect(
      planPartialCharges({ ...base, jobIds: ['job_a', 'job_b'], maxCredits: 1, creditsRemaining: 1 }),
    ).toMatchObject({ creditsCharged: 1, stopped: 'max_credits' });
    expect(planPartialCharges({ ...base, jobIds: ['job_a'], maxCredits: 0 })).toMatchObject({
      lines: [],
      stopped: 'max_credits',
    });
  });

  it('parts charged one after another never exceed the balance or the cap, and cover a prefix of all jobs', () => {
    const all = Array.from({ length: 40 }, (_, i) => `job_${i}`);
    const paid = new Set(all.filter((_, i) => i % 7 === 0));
    for (const [balance, cap] of [
      [15, null],
      [100, 12],
      [5, 9],
      [0, null],
    ] as const) {
      let credits = balance;
      let spent = 0;
      const collected: string[] = [];
      for (let start = 0; start < all.length; start += 6) {
        const plan = planPartialCharges({
          jobIds: all.slice(start, start + 6),
          alreadyPaid: paid,
          creditsRemaining: credits,
          maxCredits: cap === null ? null : cap - spent,
          mode: 'live',
        });
        credits -= plan.creditsCharged;
        spent += plan.creditsCharged;
        collected.push(...plan.lines.map((l) => l.jobId));
        if (plan.stopped) break;
      }
      expect(credits).toBeGreaterThanOrEqual(0);
      expect(spent).toBeLessThanOrEqual(Math.min(balance, cap ?? Infinity));
      expect(collected).toEqual(all.slice(0, collected.length));
    }
  });

  it('test keys collect nothing chargeable and write no line', () => {
    expect(planPartialCharges({ ...base, jobIds: ['job_a'], mode: 'test' })).toEqual({
      kind: 'ok',
      lines: [],
      creditsCharged: 0,
      alreadyPaid: 0,
      stopped: null,
    });
  });
});
