import { InFlightLimit, isRefusal, type Slot } from './in-flight-limit.js';

describe('admission by the work in flight', () => {
  it('admits up to its capacity, refuses beyond it, and admits again once a slot is released', () => {
    const limit = new InFlightLimit(2);
    const a = limit.tryEnter();
    const b = limit.tryEnter();
    expect(isRefusal(a) || isRefusal(b)).toBe(false);
    expect(limit.current).toBe(2);
    expect(isRefusal(limit.tryEnter())).toBe(true);
    (a as Slot).release();
    expect(limit.current).toBe(1);
    expect(isRefusal(limit.tryEnter())).toBe(false);
  });

  it('releases a slot once, however often the end of the work is reported', () => {
    const limit = new InFlightLimit(1);
    const slot = limit.tryEnter() as Slot;
    slot.release();
    slot.release();
    expect(limit.current).toBe(0);
    const next = limit.tryEnter();
    expect(isRefusal(next)).toBe(false);
    expect(isRefusal(limit.tryEnter())).toBe(true);
  });

  it('asks to come back after the time the work in flight takes to drain at the recent completion rate', () => {
    let now = 0;
    const limit = new InFlightLimit(4, () => now);
    // Without completions yet: 1 s.
    const slots = Array.from({ length: 4 }, () => limit.tryEnter() as Slot);
    expect(limit.tryEnter()).toEqual({ retryAfterSeconds: 1 });
    // Two completions over 4 s: 0.5 per second; 4 in flight drain in 8 s.
    now = 1000;
    slots[0]!.release();
    now = 5000;
    slots[1]!.release();
    limit.tryEnter();
    limit.tryEnter();
    expect(limit.current).toBe(4);
    expect(limit.tryEnter()).toEqual({ retryAfterSeconds: 8 });
  });

  it('keeps Retry-After between 1 and 30 s, and forgets completions older than 10 s', () => {
    let now = 0;
    const limit = new InFlightLimit(100, () => now);
    const slots = Array.from({ length: 100 }, () => limit.tryEnter() as Slot);
    now = 9_000;
    slots[0]!.release();
    limit.tryEnter();
    // 1 completion in 9 s, 100 in flight: 900 s, held to 30.
    expect(limit.tryEnter()).toEqual({ retryAfterSeconds: 30 });
    now = 20_000;
    expect(limit.tryEnter()).toEqual({ retryAfterSeconds: 1 });
  });
});
