import { roundDurationMs, verificationBound } from './verification-bound.js';

const MIN = 60_000;

describe('verificationBound', () => {
  it('promises buckets x interval, and holds while every recent round fits in an interval', () => {
    expect(
      verificationBound({
        intervalMs: MIN,
        buckets: 10,
        roundDurationsMs: [5_000, 12_000, 0, 8_000],
        maxAgeSeconds: null,
      }),
    ).toEqual({ promisedSeconds: 600, currentSeconds: 600, holds: true });
  });

  it('holds for a round that takes exactly an interval', () => {
    expect(verificationBound({ intervalMs: MIN, buckets: 10, roundDurationsMs: [MIN], maxAgeSeconds: null })).toEqual({
      promisedSeconds: 600,
      currentSeconds: 600,
      holds: true,
    });
  });

  it('does not hold once a round outlasts the interval: rounds run back to back, buckets x the longest round', () => {
    expect(
      verificationBound({
        intervalMs: MIN,
        buckets: 10,
        roundDurationsMs: [5_000, 90_000, 70_000],
        maxAgeSeconds: null,
      }),
    ).toEqual({ promisedSeconds: 600, currentSeconds: 900, holds: false });
  });

  it('follows the interval and the bucket count', () => {
    expect(
      verificationBound({ intervalMs: 2_000, buckets: 3, roundDurationsMs: [1_500], maxAgeSeconds: null }),
    ).toEqual({ promisedSeconds: 6, currentSeconds: 6, holds: true });
    expect(
      verificationBound({ intervalMs: 2_000, buckets: 3, roundDurationsMs: [2_500], maxAgeSeconds: null }),
    ).toEqual({ promisedSeconds: 6, currentSeconds: 7.5, holds: false });
    expect(verificationBound({ intervalMs: 500, buckets: 1, roundDurationsMs: [0], maxAgeSeconds: null })).toEqual({
      promisedSeconds: 0.5,
      currentSeconds: 0.5,
      holds: true,
    });
  });

  it("holds only while the provider's oldest listing is within the promise, whatever the rounds", () => {
    expect(
      verificationBound({ intervalMs: MIN, buckets: 10, roundDurationsMs: [5_000, 12_000], maxAgeSeconds: 598.5 }),
    ).toEqual({ promisedSeconds: 600, currentSeconds: 600, holds: true });
    expect(
      verificationBound({ intervalMs: MIN, buckets: 10, roundDurationsMs: [5_000, 12_000], maxAgeSeconds: 600 }),
    ).toEqual({ promisedSeconds: 600, currentSeconds: 600, holds: true });
    // a job the rounds do not reach (a company without a domain), or one that moved and was missed
    expect(
      verificationBound({ intervalMs: MIN, buckets: 10, roundDurationsMs: [5_000, 12_000], maxAgeSeconds: 601 }),
    ).toEqual({ promisedSeconds: 600, currentSeconds: 600, holds: false });
  });

  it('allows an oldest listing the sighting step past the promise: its written time trails its last sighting', () => {
    const at2s = { intervalMs: 2_000, buckets: 10, roundDurationsMs: [800], sightingStepMs: MIN };
    expect(verificationBound({ ...at2s, maxAgeSeconds: 78 })).toEqual({
      promisedSeconds: 20,
      currentSeconds: 20,
      holds: true,
    });
    expect(verificationBound({ ...at2s, maxAgeSeconds: 81 }).holds).toBe(false);
  });

  it('does not hold before any round: nothing was re-verified yet', () => {
    expect(verificationBound({ intervalMs: MIN, buckets: 10, roundDurationsMs: [], maxAgeSeconds: null })).toEqual({
      promisedSeconds: 600,
      currentSeconds: 600,
      holds: false,
    });
  });
});

describe('roundDurationMs', () => {
  const startedAt = Date.parse('2026-11-24T10:00:00.000Z');
  const STALE = 10 * MIN;

  it('runs to its last sweep end', () => {
    expect(roundDurationMs({ startedAt, endedAt: startedAt + 7_500 }, startedAt + 9 * MIN, STALE)).toBe(7_500);
  });

  it('counts a round still running until now, so a stuck round breaks the bound before it ends', () => {
    expect(roundDurationMs({ startedAt, endedAt: null }, startedAt + 2 * MIN, STALE)).toBe(2 * MIN);
  });

  it('counts a round with a lost sweep until the planner gives up on it', () => {
    expect(roundDurationMs({ startedAt, endedAt: null }, startedAt + 60 * MIN, STALE)).toBe(STALE);
  });

  it('is never negative (clocks of two replicas)', () => {
    expect(roundDurationMs({ startedAt, endedAt: startedAt - 5 }, startedAt, STALE)).toBe(0);
    expect(roundDurationMs({ startedAt, endedAt: null }, startedAt - 5, STALE)).toBe(0);
  });
});
