import { backoffDelayMs, DEFAULT_RETRY_POLICY, mayHaveRun, retryDecision, type RetryPolicy } from './retry-policy.js';

const policy: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };
const half = () => 0.5;
const response = (status: number, retryAfterSeconds: number | null = null) => ({
  kind: 'response' as const,
  status,
  retryAfterSeconds,
});

describe('retryDecision', () => {
  it.each([429, 503])('waits Retry-After exactly on %d', (status) => {
    expect(retryDecision(response(status, 7), 1, policy, half)).toEqual({
      retry: true,
      delayMs: 7_000,
      reason: status === 429 ? 'rate_limited' : 'unavailable',
    });
    expect(retryDecision(response(status, 0), 1, policy, half)).toMatchObject({ retry: true, delayMs: 0 });
  });

  it.each([429, 503])('backs off on %d without Retry-After', (status) => {
    expect(retryDecision(response(status), 1, policy, half)).toMatchObject({
      retry: true,
      delayMs: backoffDelayMs(1, policy, half),
    });
  });

  it('does not wait a Retry-After longer than maxRetryAfterMs: the error goes to the caller', () => {
    expect(retryDecision(response(429, 61), 1, policy, half)).toEqual({ retry: false });
    expect(retryDecision(response(429, 60), 1, policy, half)).toMatchObject({ retry: true, delayMs: 60_000 });
  });

  it.each([500, 502, 504])('backs off and retries %d', (status) => {
    expect(retryDecision(response(status), 2, policy, half)).toEqual({
      retry: true,
      delayMs: backoffDelayMs(2, policy, half),
      reason: 'server_error',
    });
  });

  it('honours a Retry-After on a 500 (the gateway sends one while its Redis is away)', () => {
    expect(retryDecision(response(500, 1), 1, policy, half)).toMatchObject({ retry: true, delayMs: 1_000 });
  });

  it('retries network errors with a back-off', () => {
    expect(retryDecision({ kind: 'network' }, 1, policy, half)).toEqual({
      retry: true,
      delayMs: backoffDelayMs(1, policy, half),
      reason: 'network_error',
    });
  });

  it.each([400, 401, 402, 403, 404, 409, 405, 408, 413, 422, 501])('never retries %d', (status) => {
    expect(retryDecision(response(status, 1), 1, policy, half)).toEqual({ retry: false });
  });

  it('stops after maxRetries retries (maxRetries + 1 attempts)', () => {
    expect(retryDecision(response(500), 3, policy, half).retry).toBe(true);
    expect(retryDecision(response(500), 4, policy, half).retry).toBe(false);
    expect(retryDecision({ kind: 'network' }, 4, policy, half).retry).toBe(false);
    expect(retryDecision(response(429, 1), 4, policy, half).retry).toBe(false);
    expect(retryDecision(response(500), 1, { ...policy, maxRetries: 0 }, half).retry).toBe(false);
  });
});

describe('mayHaveRun', () => {
  it.each([500, 502, 503, 504])('%d: the service may have acted before the answer was lost', (status) => {
    expect(mayHaveRun(response(status))).toBe(true);
  });

  it('a network error: the request may have arrived', () => {
    expect(mayHaveRun({ kind: 'network' })).toBe(true);
  });

  it.each([400, 401, 404, 409, 429])('%d: refused, nothing ran', (status) => {
    expect(mayHaveRun(response(status, 1))).toBe(false);
  });
});

describe('backoffDelayMs', () => {
  it('doubles each retry up to maxDelayMs, half fixed and half jitter', () => {
    const low = () => 0;
    const high = () => 0.999999;
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n, policy, low))).toEqual([250, 500, 1000, 2000, 4000, 4000]);
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n, policy, high))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    for (let i = 0; i < 100; i++) {
      const delay = backoffDelayMs(3, policy, Math.random);
      expect(delay).toBeGreaterThanOrEqual(1000);
      expect(delay).toBeLessThanOrEqual(2000);
    }
  });

  it('has spec-minded defaults', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({
      maxRetries: 3,
      baseDelayMs: 500,
      maxDelayMs: 8_000,
      maxRetryAfterMs: 60_000,
    });
  });
});
