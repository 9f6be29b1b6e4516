import { contributionsOf } from './contributions.js';

describe('contributionsOf', () => {
  it('counts the jobs each provider brought first, every answered provider listed', () => {
    const credited = { job_a: 'own_index', job_b: 'provider_a', job_c: 'own_index' } as const;
    expect(contributionsOf([{ id: 'job_a' }, { id: 'job_c' }], credited, ['own_index', 'provider_a'])).toEqual({
      own_index: 2,
      provider_a: 0,
    });
  });

  it('counts only the jobs given: a page cut short counts what it returns', () => {
    const credited = { job_a: 'own_index', job_b: 'provider_a' } as const;
    expect(contributionsOf([{ id: 'job_b' }], credited, ['own_index', 'provider_a'])).toEqual({
      own_index: 0,
      provider_a: 1,
    });
  });
});
