import { planCharges } from './charge-plan.js';

const base = { alreadyPaid: new Set<string>(), creditsRemaining: 100, maxCredits: null, mode: 'live' as const };

describe('planCharges', () => {
  it('charges one credit per new unique job', () => {
    const plan = planCharges({ ...base, jobIds: ['job_a', 'job_b', 'job_a'] });
    expect(plan).toEqual({
      kind: 'ok',
      creditsCharged: 2,
      alreadyPaid: 0,
      lines: [
        { jobId: 'job_a', reason: 'charged', credits: 1 },
        { jobId: 'job_b', reason: 'charged', credits: 1 },
      ],
    });
  });

  it('never charges a job twice: re-reads are free and logged', () => {
    const plan = planCharges({ ...base, jobIds: ['job_a', 'job_b'], alreadyPaid: new Set(['job_a']) });
    expect(plan.kind === 'ok' && plan.lines).toEqual([
      { jobId: 'job_a', reason: 'already_paid', credits: 0 },
      { jobId: 'job_b', reason: 'charged', credits: 1 },
    ]);
    expect(plan.kind === 'ok' && plan.creditsCharged).toBe(1);
  });

  it('stops the results at max_credits', () => {
    const plan = planCharges({ ...base, jobIds: ['job_a', 'job_b', 'job_c'], maxCredits: 2 });
    expect(plan.kind === 'ok' && plan.lines.map((l) => l.jobId)).toEqual(['job_a', 'job_b']);
  });

  it('returns the already-paid jobs before the cap, and stops at the first job it cannot charge', () => {
    const plan = planCharges({
      ...base,
      jobIds: ['job_c', 'job_a', 'job_d'],
      maxCredits: 0,
      alreadyPaid: new Set(['job_c', 'job_d']),
    });
    expect(plan.kind === 'ok' && plan.lines.map((l) => l.jobId)).toEqual(['job_c']);
  });

  it('refuses with the missing credits when the account cannot pay', () => {
    expect(planCharges({ ...base, jobIds: ['job_a', 'job_b', 'job_c'], creditsRemaining: 1 })).toEqual({
      kind: 'insufficient_credits',
      creditsNeeded: 2,
    });
  });

  it('lets max_credits bring a request within the balance', () => {
    const plan = planCharges({ ...base, jobIds: ['job_a', 'job_b', 'job_c'], creditsRemaining: 1, maxCredits: 1 });
    expect(plan.kind).toBe('ok');
  });

  it('charges nothing for an empty page or a test key', () => {
    expect(planCharges({ ...base, jobIds: [], creditsRemaining: 0 })).toEqual({
      kind: 'ok',
      lines: [],
      creditsCharged: 0,
      alreadyPaid: 0,
    });
    expect(planCharges({ ...base, jobIds: ['job_a'], mode: 'test' })).toMatchObject({ kind: 'ok', creditsCharged: 0 });
  });
});
