import { decideJobUpdate } from './paid-job-updates.usecase.js';

describe('decideJobUpdate: job.updated carries the full Job, so only a paying account gets it', () => {
  it('goes to an account that has paid for the job', () => {
    expect(decideJobUpdate({ paid: true, heldOpened: false })).toBe('emitted');
  });

  it('never goes to an account that has not paid for the job', () => {
    expect(decideJobUpdate({ paid: false, heldOpened: false })).toBe('dropped');
  });

  it(
    "refreshes the account's held job.opened instead of sending " +
      'it (the job.opened still comes after a top-up, with the ' +
      'newest job)',
    () => {
      expect(decideJobUpdate({ paid: false, heldOpened: true })).toBe('refreshed_held_opened');
    },
  );

  it('a paid job with a held job.opened of another watch still goes out', () => {
    expect(decideJobUpdate({ paid: true, heldOpened: true })).toBe('emitted');
  });
});
