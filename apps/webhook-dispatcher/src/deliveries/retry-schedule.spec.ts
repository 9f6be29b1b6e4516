import { afterFailure, retryDelayMs, type RetryState } from './retry-schedule.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const SCHEDULE = [1 * MIN, 5 * MIN, 30 * MIN, 2 * HOUR, 6 * HOUR, 12 * HOUR, 24 * HOUR];
const t0 = new Date('2026-11-22T10:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

/** Plays a delivery whose every attempt fails `latencyMs` after it is due; returns the due times. */
function playAllFailing(scale: number, latencyMs = 0): { dueTimes: number[]; attempts: number } {
  let state: RetryState = { retrySlot: 0, firstFailedAt: null };
  let failedAt = at(latencyMs);
  const dueTimes: number[] = [];
  let attempts = 1;
  for (;;) {
    const next = afterFailure(state, failedAt, scale);
    if (next.kind === 'give_up') return { dueTimes, attempts };
    dueTimes.push(next.dueAt.getTime() - t0.getTime());
    state = next;
    attempts += 1;
    failedAt = new Date(next.dueAt.getTime() + latencyMs);
  }
}

describe('retry schedule', () => {
  it('retries 1m, 5m, 30m, 2h, 6h, 12h, 24h after the first failure, then gives up (8 attempts in all)', () => {
    expect(playAllFailing(1)).toEqual({ dueTimes: SCHEDULE, attempts: 8 });
  });

  it('measures every retry from the first failed attempt, not from the previous one', () => {
    const { dueTimes } = playAllFailing(1, 10_000);
    expect(dueTimes).toEqual(SCHEDULE.map((ms) => ms + 10_000));
  });

  it.each([0.001, 0.5, 2])('multiplies every delay by WEBHOOK_RETRY_SCALE=%s', (scale) => {
    expect(playAllFailing(scale).dueTimes).toEqual(SCHEDULE.map((ms) => Math.round(ms * scale)));
    expect(retryDelayMs(0, scale)).toBe(Math.round(MIN * scale));
  });

  it('turns one minute into 60 ms at scale 0.001: the whole schedule is about 86 s', () => {
    expect(retryDelayMs(0, 0.001)).toBe(60);
    expect(retryDelayMs(6, 0.001)).toBe(86_400);
  });

  it('skips slots already past when an attempt fails late, and never schedules in the past', () => {
    // first failure at t0; the retry due at 1 m fails only at 40 m (say the dispatcher was down)
    const first = afterFailure({ retrySlot: 0, firstFailedAt: null }, t0, 1);
    expect(first).toMatchObject({ kind: 'retry', retrySlot: 1, dueAt: at(MIN) });
    const late = afterFailure({ retrySlot: 1, firstFailedAt: t0 }, at(40 * MIN), 1);
    expect(late).toEqual({ kind: 'retry', retrySlot: 4, dueAt: at(2 * HOUR), firstFailedAt: t0 });
  });

  it('makes one last attempt at once when even the 24 h slot has passed unused, then gives up', () => {
    const last = afterFailure({ retrySlot: 2, firstFailedAt: t0 }, at(30 * HOUR), 1);
    expect(last).toEqual({ kind: 'retry', retrySlot: 7, dueAt: at(30 * HOUR), firstFailedAt: t0 });
    expect(afterFailure({ retrySlot: 7, firstFailedAt: t0 }, at(30 * HOUR), 1)).toEqual({
      kind: 'give_up',
      retrySlot: 7,
      firstFailedAt: t0,
    });
  });

  it('keeps the first failure time once set', () => {
    const next = afterFailure({ retrySlot: 1, firstFailedAt: t0 }, at(MIN), 1);
    expect(next.firstFailedAt).toEqual(t0);
  });

  it('refuses a scale that is not positive', () => {
    expect(() => afterFailure({ retrySlot: 0, firstFailedAt: null }, t0, 0)).toThrow(RangeError);
    expect(() => retryDelayMs(7, 1)).toThrow(RangeError);
  });
});
