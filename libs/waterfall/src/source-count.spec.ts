import { examples, type Job } from '@jobs/contracts';
import { sourceCount } from './source-count.js';

describe('sourceCount', () => {
  it('counts distinct providers', () => {
    const base = examples.job().sources[0]!;
    const job: Job = {
      ...examples.job(),
      sources: [base, { ...base, provider_job_id: 'other' }, { ...base, provider: 'provider_f' }],
    };
    expect(sourceCount(job)).toBe(2);
  });
});
