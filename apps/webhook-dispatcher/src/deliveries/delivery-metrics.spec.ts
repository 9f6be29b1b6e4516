import { attemptLabel } from './delivery-metrics.js';

describe('attemptLabel', () => {
  it('labels an attempt by the status it left its delivery in', () => {
    expect(attemptLabel('succeeded')).toBe('delivered');
    expect(attemptLabel('pending')).toBe('retrying');
    expect(attemptLabel('failed')).toBe('gave_up');
    expect(attemptLabel('refused')).toBe('refused');
  });
});
