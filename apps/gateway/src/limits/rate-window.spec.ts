import { decideRate, rateLimitHeaders } from './rate-window.js';

const taken = (count: number, ttlMs: number) => ({ allowed: true, count, ttlMs });
const refused = (count: number, ttlMs: number) => ({ allowed: false, count, ttlMs });

describe('fixed window decisions', () => {
  it('allows up to the limit and counts down the remaining requests', () => {
    expect(decideRate(taken(1, 60_000), 3)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
    expect(decideRate(taken(3, 59_001), 3)).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 60 });
  });

  it('refuses with what is left: 0 for a request past the limit (never negative), the room a batch did not fit', () => {
    expect(decideRate(refused(3, 10_000), 3)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 10 });
    expect(decideRate(refused(400, 10_000), 3).remaining).toBe(0);
    expect(decideRate(refused(1, 10_000), 3)).toMatchObject({ allowed: false, remaining: 2 });
  });

  it('rounds the reset up to whole seconds and never reports 0 while the window is open', () => {
    expect(decideRate(taken(1, 1), 3).resetSeconds).toBe(1);
    expect(decideRate(taken(1, 1_001), 3).resetSeconds).toBe(2);
    expect(decideRate(taken(1, 0), 3).resetSeconds).toBe(1);
  });

  it('adds Retry-After only when refusing, as integer seconds', () => {
    expect(rateLimitHeaders(decideRate(taken(1, 60_000), 3))).toEqual({
      'RateLimit-Limit': '3',
      'RateLimit-Remaining': '2',
      'RateLimit-Reset': '60',
    });
    expect(rateLimitHeaders(decideRate(refused(3, 12_300), 3))['Retry-After']).toBe('13');
  });
});
