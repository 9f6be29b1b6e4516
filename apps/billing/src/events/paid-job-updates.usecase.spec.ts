import { decideJobUpdate } from './paid-job-updates.usecase.js';

describe('decideJobUpdate: job.updated carries the full Job, so only a paying account gets it', () => {
  it('goes to an account that has paid for the job', () => {
    expect(decideJobUpdate({ paid: true, heldOpened: false, leftScope: false, heldOnly: false })).toEqual({
      send: true,
      held: 'none',
    });
  });

  it('never goes to an account that has not paid for the job', () => {
    expect(decideJobUpdate({ paid: false, heldOpened: false, leftScope: false, heldOnly: false })).toEqual({
      send: false,
      held: 'none',
    });
  });

  it("refreshes the watch's held job.opened, paid for or not (a top-up releases it with the newest job)", () => {
    expect(decideJobUpdate({ paid: false, heldOpened: true, leftScope: false, heldOnly: false })).toEqual({
      send: false,
      held: 'refresh',
    });
    expect(decideJobUpdate({ paid: true, heldOpened: true, leftScope: false, heldOnly: false })).toEqual({
      send: true,
      held: 'refresh',
    });
  });

  it('drops the held job.opened of a job the update took out of the watch (it no longer matches)', () => {
    expect(decideJobUpdate({ paid: false, heldOpened: true, leftScope: true, heldOnly: false })).toEqual({
      send: false,
      held: 'drop',
    });
    expect(decideJobUpdate({ paid: true, heldOpened: true, leftScope: true, heldOnly: false })).toEqual({
      send: true,
      held: 'drop',
    });
    expect(decideJobUpdate({ paid: false, heldOpened: false, leftScope: true, heldOnly: false })).toEqual({
      send: false,
      held: 'none',
    });
  });

  it('never goes to a watch that does not hear of updates, but still refreshes its held job.opened', () => {
    expect(decideJobUpdate({ paid: true, heldOpened: true, leftScope: false, heldOnly: true })).toEqual({
      send: false,
      held: 'refresh',
    });
    expect(decideJobUpdate({ paid: true, heldOpened: false, leftScope: false, heldOnly: true })).toEqual({
      send: false,
      held: 'none',
    });
  });
});
