import { examples } from '@jobs/contracts';
import { batchesOf, type GatheredMessage } from './search-state.store.js';

const job = (id: string) => ({ ...examples.job(), id });

describe('batchesOf', () => {
  it("gives each provider's batch its jobs in rank order, jobs shared between batches kept once per message", () => {
    const wave: GatheredMessage = {
      jobs: [job('job_a1'), job('job_b1')],
      batches: [
        {
          provider: 'provider_a',
          outcome: 'ok',
          recordsIn: 2,
          duplicatesMerged: 0,
          fromStore: 0,
          jobIds: ['job_b1', 'job_a1'],
        },
        { provider: 'provider_b', outcome: 'ok', recordsIn: 1, duplicatesMerged: 0, fromStore: 0, jobIds: ['job_b1'] },
      ],
    };
    const batches = batchesOf([wave]);
    expect(batches.map((b) => [b.provider, b.jobs.map((j) => j.id)])).toEqual([
      ['provider_a', ['job_b1', 'job_a1']],
      ['provider_b', ['job_b1']],
    ]);
    expect(batches[0]!.jobs[0]).toBe(batches[1]!.jobs[0]);
  });

  it('keeps the first recorded batch of a provider that a redelivered wave brings again', () => {
    const part: GatheredMessage = {
      jobs: [job('job_a1')],
      batches: [
        { provider: 'provider_a', outcome: 'ok', recordsIn: 1, duplicatesMerged: 0, fromStore: 0, jobIds: ['job_a1'] },
      ],
    };
    const whole: GatheredMessage = {
      jobs: [job('job_a2'), job('job_d1')],
      batches: [
        { provider: 'provider_a', outcome: 'ok', recordsIn: 1, duplicatesMerged: 0, fromStore: 0, jobIds: ['job_a2'] },
        {
          provider: 'provider_d',
          outcome: 'provider_timeout',
          recordsIn: 0,
          duplicatesMerged: 0,
          fromStore: 0,
          jobIds: [],
        },
      ],
    };
    expect(batchesOf([part, whole]).map((b) => [b.provider, b.outcome, b.jobs.map((j) => j.id)])).toEqual([
      ['provider_a', 'ok', ['job_a1']],
      ['provider_d', 'provider_timeout', []],
    ]);
  });
});
