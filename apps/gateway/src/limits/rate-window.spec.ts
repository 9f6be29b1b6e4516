import { decideRate, rateLimitHeaders } from './rate-window.js';

describe('fixed window decisions', () => {
  it('allows up to the limit and counts down the remaining requests', () => {
    expect(decideRate(1, 3, 60_000)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
    expect(decideRate(3, 3, 59_001)).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 60 });
  });

  it('refuses beyond the limit with remaining 0, never negative', () => {
    expect(decideRate(4, 3, 10_000)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 10 });
    expect(decideRate(400, 3, 10_000).remaining).toBe(0);
  });

  it('rounds the reset up to whole seconds and never reports 0 while the window is open', () => {
    expect(decideRate(1, 3, 1).resetSeconds).toBe(1);
    expect(decideRate(1, 3, 1_001).resetSeconds).toBe(2);
    expect(decideRate(1, 3, 0).resetSeconds).toBe(1);
  });

  it('adds Retry-After only when refusing, as integer seconds', () => {
    expect(rateLimitHeaders(decideRate(1, 3, 60_000))).toEqual({
      'RateLimit-Limit': '3',
      'RateLimit-Remaining': '2',
      'RateLimit-Reset': '60',
    });
    expect(rateLimitHeaders(decideRate(5, 3, 12_300))['Retry-After']).toBe('13');
  });
});
