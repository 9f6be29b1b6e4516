import { toSimJob } from './world-controls.usecase.js';

describe('toSimJob', () => {
  it('drops the salary origin, which the world does not hold, and keeps every other field', () => {
    const job = {
      company_domain: 'acme.example',
      title: 'Kiln Whisperer',
      providers: ['own_index' as const],
      salary: { min: 1, max: 2, currency: 'EUR', period: 'year' as const, origin: 'declared' as const },
    };
    expect(toSimJob(job)).toEqual({
      company_domain: 'acme.example',
      title: 'Kiln Whisperer',
      providers: ['own_index'],
      salary: { min: 1, max: 2, currency: 'EUR', period: 'year' },
    });
  });

  it('leaves a job without salary unchanged', () => {
    expect(toSimJob({ title: 'New title' })).toEqual({ title: 'New title' });
  });
});
