import { InFlightLimit, isRefusal, type Refusal, type Slot } from './in-flight-limit.js';

const CEILING = 10_000;

/** A limit on a clock the test moves. */
function limitOn(tuning: { min: number; max: number; start?: number; window: number; floorMs?: number }) {
  const clock = { now: 0 };
  const limit = new InFlightLimit(tuning, () => clock.now);
  /** `n` units admitted at once, all released `ms` later. */
  const fill = (n: number, ms: number) => {
    const slots = Array.from({ length: n }, () => enter(limit));
    clock.now += ms;
    for (const slot of slots) slot.release();
  };
  return { limit, clock, fill };
}

const enter = (limit: InFlightLimit, ceiling = CEILING) => {
  const admission = limit.tryEnter(ceiling);
  if (isRefusal(admission)) throw new Error('refused');
  return admission;
};

describe('admission by the work in flight', () => {
  it('admits up to its limit, refuses beyond it, and admits again once a slot is released', () => {
    const { limit } = limitOn({ min: 1, max: 2, window: 8 });
    const a = enter(limit);
    enter(limit);
    expect(limit.current).toBe(2);
    expect(isRefusal(limit.tryEnter(CEILING))).toBe(true);
    a.release();
    expect(limit.current).toBe(1);
    expect(isRefusal(limit.tryEnter(CEILING))).toBe(false);
  });

  it('releases a slot once, however often the end of the work is reported', () => {
    const { limit } = limitOn({ min: 1, max: 1, window: 8 });
    const slot = enter(limit);
    slot.release();
    slot.release();
    expect(limit.current).toBe(0);
    enter(limit);
    expect(isRefusal(limit.tryEnter(CEILING))).toBe(true);
  });

  it('asks to come back after the time the work in flight takes to drain at the recent completion rate', () => {
    const { limit, clock } = limitOn({ min: 4, max: 4, window: 100 });
    const slots = Array.from({ length: 4 }, () => enter(limit));
    // Without completions yet: 1 s.
    expect(limit.tryEnter(CEILING)).toEqual({ retryAfterSeconds: 1 });
    // Two completions over 4 s: 0.5 per second; 4 in flight drain in 8 s.
    clock.now = 1000;
    slots[0]!.release();
    clock.now = 5000;
    slots[1]!.release();
    enter(limit);
    enter(limit);
    expect(limit.tryEnter(CEILING)).toEqual({ retryAfterSeconds: 8 });
  });

  it('keeps Retry-After between 1 and 30 s, and forgets completions older than 10 s', () => {
    const { limit, clock } = limitOn({ min: 100, max: 100, window: 1000 });
    const slots = Array.from({ length: 100 }, () => enter(limit));
    clock.now = 9_000;
    slots[0]!.release();
    enter(limit);
    // 1 completion in 9 s, 100 in flight: 900 s, held to 30.
    expect((limit.tryEnter(CEILING) as Refusal).retryAfterSeconds).toBe(30);
    clock.now = 20_000;
    expect((limit.tryEnter(CEILING) as Refusal).retryAfterSeconds).toBe(1);
  });

  it('shrinks the limit once per generation of admitted work when the work outlives its ceiling', () => {
    const { limit, clock } = limitOn({ min: 2, max: 10, window: 8 });
    const slots = Array.from({ length: 10 }, () => enter(limit));
    clock.now = CEILING + 1;
    for (const slot of slots) slot.release();
    // Ten late completions, all admitted under the old limit: one decrease, 10 -> 7.
    expect(limit.limit).toBe(7);
    const next = Array.from({ length: 7 }, () => enter(limit));
    clock.now += CEILING + 1;
    for (const slot of next) slot.release();
    expect(limit.limit).toBe(4);
    const last = Array.from({ length: 4 }, () => enter(limit));
    clock.now += CEILING + 1;
    for (const slot of last) slot.release();
    // Never below the minimum.
    expect(limit.limit).toBe(2);
  });

  it('holds the p95 of a window against twice the quiet p95, and grows back while within it', () => {
    const { limit, clock } = limitOn({ min: 2, max: 8, window: 4 });
    // Quiet: one at a time, 1 s each, so the quiet p95 is 1 s and the target 2 s.
    for (let i = 0; i < 6; i++) {
      const slot = enter(limit);
      clock.now += 1000;
      slot.release();
    }
    expect(limit.quietP95Ms).toBe(1000);
    expect(limit.limit).toBe(8);
    // Eight at once taking 3 s each: above the target, 8 -> 5, once.
    const busy = Array.from({ length: 8 }, () => enter(limit));
    clock.now += 3000;
    for (const slot of busy) slot.release();
    expect(limit.limit).toBe(5);
    // The quiet p95 stays what quiet work showed: the crowded work did not count as quiet.
    expect(limit.quietP95Ms).toBe(1000);
    // Still too slow at 5 at once (2.5 s): 5 -> 3.
    const slower = Array.from({ length: 5 }, () => enter(limit));
    clock.now += 2500;
    for (const slot of slower) slot.release();
    expect(limit.limit).toBe(3);
    // Light load again, one at a time within the target: back to the maximum.
    for (let i = 0; i < 20; i++) {
      const slot = enter(limit);
      clock.now += 1000;
      slot.release();
    }
    expect(limit.limit).toBe(8);
  });

  it('starts at `start` and grows from there only by windows that filled it within the target', () => {
    const { limit, clock, fill } = limitOn({ min: 2, max: 16, start: 4, window: 4 });
    // Quiet: one at a time, 1 s each (target 2 s). A light window leaves the limit at its start.
    for (let i = 0; i < 6; i++) fill(1, 1000);
    expect(limit.limit).toBe(4);
    // A burst: four let in, the rest refused at once.
    const first = Array.from({ length: 4 }, () => enter(limit));
    expect(isRefusal(limit.tryEnter(CEILING))).toBe(true);
    // They come back within the target: the limit doubles, 4 -> 8, then 8 -> 16.
    clock.now += 1500;
    for (const slot of first) slot.release();
    expect(limit.limit).toBe(8);
    fill(8, 1500);
    expect(limit.limit).toBe(16);
  });

  it('comes down to `start` after windows that used half of it or less, and doubles back to where it was', () => {
    const { limit, fill } = limitOn({ min: 2, max: 16, start: 4, window: 4 });
    // Quiet: one at a time, 1 s each (target 2 s); then full windows within it: 4 -> 8 -> 16.
    for (let i = 0; i < 6; i++) fill(1, 1000);
    fill(4, 1500);
    fill(8, 1500);
    expect(limit.limit).toBe(16);
    // One at a time again: those windows say nothing about 16 at once, so back to the start.
    for (let i = 0; i < 8; i++) fill(1, 1000);
    expect(limit.limit).toBe(4);
    // A full window within the target: 4 -> 8 -> 16, where the light spell found it, not a quarter at a time.
    fill(4, 1500);
    expect(limit.limit).toBe(8);
    fill(8, 1500);
    expect(limit.limit).toBe(16);
    // A busy spell shrinks it below the start (16 -> 11 -> 7 -> 4 -> 2); light load brings it back to the start.
    for (const n of [16, 11, 7, 4]) fill(n, 3000);
    expect(limit.limit).toBe(2);
    for (let i = 0; i < 4; i++) fill(1, 1000);
    expect(limit.limit).toBe(4);
    // Above what the busy spell left, growth is a quarter at a time (at least one): 4 -> 5.
    fill(4, 1500);
    expect(limit.limit).toBe(5);
  });

  it('never shrinks while the window p95 is at or under the floor, however fast quiet work was', () => {
    const { limit, clock } = limitOn({ min: 2, max: 8, window: 4, floorMs: 1000 });
    // Quiet: 50 ms each, so twice the quiet p95 is 100 ms, under the floor.
    for (let i = 0; i < 6; i++) {
      const slot = enter(limit);
      clock.now += 50;
      slot.release();
    }
    expect(limit.quietP95Ms).toBe(50);
    // Eight at once taking 900 ms: nine times quiet, but under the 1 s floor: no refusal to come.
    const busy = Array.from({ length: 8 }, () => enter(limit));
    clock.now += 900;
    for (const slot of busy) slot.release();
    expect(limit.limit).toBe(8);
    // Beyond the floor the limit shrinks as before: 8 -> 5.
    const slower = Array.from({ length: 8 }, () => enter(limit));
    clock.now += 1500;
    for (const slot of slower) slot.release();
    expect(limit.limit).toBe(5);
  });
});

export type { Slot };
