import { InFlightLimit, type InFlightTuning, type Slot } from './in-flight-limit.js';

const CEILING = 10_000;

/** A limit on a clock the test moves; its tolerance is 2 unless a test names its own. */
function limitOn(tuning: Omit<InFlightTuning, 'tolerance'> & { tolerance?: number }) {
  const clock = { now: 0 };
  const limit = new InFlightLimit({ tolerance: 2, ...tuning }, () => clock.now);
  /** `n` units admitted at once, all released `ms` later. */
  const fill = (n: number, ms: number) => {
    const slots = Array.from({ length: n }, () => enter(limit));
    clock.now += ms;
    for (const slot of slots) slot.release();
  };
  return { limit, clock, fill };
}

const enter = (limit: InFlightLimit, ceiling = CEILING): Slot => {
  const slot = limit.tryEnter(ceiling);
  if (!slot) throw new Error('no room');
  return slot;
};

describe('admission by the work in flight', () => {
  it('admits up to its limit, admits nothing beyond it, and admits again once a slot is released', () => {
    const { limit } = limitOn({ min: 1, max: 2, window: 8 });
    const a = enter(limit);
    enter(limit);
    expect(limit.current).toBe(2);
    expect(limit.tryEnter(CEILING)).toBeUndefined();
    a.release();
    expect(limit.current).toBe(1);
    expect(limit.tryEnter(CEILING)).toBeDefined();
  });

  it('releases a slot once, however often the end of the work is reported', () => {
    const { limit } = limitOn({ min: 1, max: 1, window: 8 });
    const slot = enter(limit);
    slot.release();
    slot.release();
    expect(limit.current).toBe(0);
    enter(limit);
    expect(limit.tryEnter(CEILING)).toBeUndefined();
  });

  it('shrinks the limit once per generation of admitted work when the work outlives its ceiling', () => {
    const { limit, clock, fill } = limitOn({ min: 2, max: 10, window: 8 });
    // Unloaded latencies first, so that no probe interferes.
    for (let i = 0; i < 3; i++) fill(1, 1000);
    const slots = Array.from({ length: 10 }, () => enter(limit));
    clock.now += CEILING + 1;
    for (const slot of slots) slot.release();
    // Ten late completions, all admitted under the old limit: one decrease, 10 -> 7.
    expect(limit.limit).toBe(7);
    fill(7, CEILING + 1);
    expect(limit.limit).toBe(4);
    fill(4, CEILING + 1);
    // Never below the minimum.
    expect(limit.limit).toBe(2);
  });

  it('holds the p95 of a window against twice the unloaded p50, and grows back while within it', () => {
    const { limit, fill } = limitOn({ min: 2, max: 8, window: 4 });
    // Unloaded: one at a time, 1 s each, so the target is 2 s.
    for (let i = 0; i < 6; i++) fill(1, 1000);
    expect(limit.unloadedP50Ms).toBe(1000);
    expect(limit.targetMs(CEILING)).toBe(2000);
    expect(limit.limit).toBe(8);
    // Eight at once taking 3 s each: above the target, 8 -> 5, once.
    fill(8, 3000);
    expect(limit.limit).toBe(5);
    // The unloaded p50 stays what unloaded work showed: the crowded work did not count.
    expect(limit.unloadedP50Ms).toBe(1000);
    // Still too slow at 5 at once (2.5 s): 5 -> 3.
    fill(5, 2500);
    expect(limit.limit).toBe(3);
    // Light load again, one at a time within the target: back to the maximum.
    for (let i = 0; i < 20; i++) fill(1, 1000);
    expect(limit.limit).toBe(8);
  });

  it('counts work with one other unit beside it as unloaded, and work with two others as loaded', () => {
    const { limit, fill } = limitOn({ min: 2, max: 8, window: 100 });
    for (let i = 0; i < 3; i++) fill(2, 1000);
    expect(limit.unloadedP50Ms).toBe(1000);
    for (let i = 0; i < 20; i++) fill(3, 1500);
    expect(limit.unloadedP50Ms).toBe(1000);
  });

  it('takes the tolerance as the multiple of the unloaded p50 it holds the window p95 to', () => {
    const { limit, fill } = limitOn({ min: 2, max: 8, window: 4, tolerance: 1.5 });
    for (let i = 0; i < 6; i++) fill(1, 1000);
    expect(limit.targetMs(CEILING)).toBe(1500);
    // 1.8 s at eight at once is within twice, not within 1.5 times: 8 -> 5.
    fill(8, 1800);
    expect(limit.limit).toBe(5);
    // Never above the ceiling of the work itself.
    expect(limit.targetMs(1200)).toBe(1200);
  });

  it('holds the pipeline to the shared tolerance while several accounts share it', () => {
    const { limit, fill } = limitOn({ min: 2, max: 8, window: 4, tolerance: 2, sharedTolerance: 1.25 });
    for (let i = 0; i < 6; i++) fill(1, 1000);
    expect(limit.targetMs(CEILING)).toBe(2000);
    limit.sharing = true;
    expect(limit.targetMs(CEILING)).toBe(1250);
    // 1.5 s at eight at once is within twice the unloaded p50 but not within 1.25 times: 8 -> 5.
    fill(8, 1500);
    expect(limit.limit).toBe(5);
    limit.sharing = false;
    expect(limit.targetMs(CEILING)).toBe(2000);
  });

  it('drops a limit the lone account grew past `start` to `start` when a second account comes', () => {
    const { limit, fill } = limitOn({ min: 2, max: 16, start: 4, window: 4, tolerance: 4, sharedTolerance: 1.5 });
    for (let i = 0; i < 6; i++) fill(1, 1000);
    // Alone, 2.5 s at a full limit is within four times the unloaded 1 s: the limit grows to its maximum.
    for (let i = 0; i < 4; i++) fill(limit.limit, 2500);
    expect(limit.limit).toBe(16);
    limit.sharing = true;
    expect(limit.limit).toBe(4);
    // Shared, the next windows judge it by the shared tolerance, and it grows back only by quarters.
    fill(4, 1400);
    expect(limit.limit).toBe(5);
    // Staying shared never drops it again.
    limit.sharing = true;
    expect(limit.limit).toBe(5);
  });

  it('starts at `start` and grows from there only by windows that filled it within the target', () => {
    const { limit, clock, fill } = limitOn({ min: 2, max: 16, start: 4, window: 4 });
    // Unloaded: one at a time, 1 s each (target 2 s). A light window leaves the limit at its start.
    for (let i = 0; i < 6; i++) fill(1, 1000);
    expect(limit.limit).toBe(4);
    // A burst: four let in, no room for the rest.
    const first = Array.from({ length: 4 }, () => enter(limit));
    expect(limit.tryEnter(CEILING)).toBeUndefined();
    // They come back within the target: the limit doubles, 4 -> 8, then 8 -> 16.
    clock.now += 1500;
    for (const slot of first) slot.release();
    expect(limit.limit).toBe(8);
    fill(8, 1500);
    expect(limit.limit).toBe(16);
  });

  it('comes down to `start` after windows that used half of it or less, and doubles back to where it was', () => {
    const { limit, fill } = limitOn({ min: 2, max: 16, start: 4, window: 4 });
    // Unloaded: one at a time, 1 s each (target 2 s); then full windows within it: 4 -> 8 -> 16.
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

  it('never shrinks while the window p95 is at or under the floor, however fast unloaded work was', () => {
    const { limit, fill } = limitOn({ min: 2, max: 8, window: 4, floorMs: 1000 });
    // Unloaded: 50 ms each, so twice the unloaded p50 is 100 ms, under the floor.
    for (let i = 0; i < 6; i++) fill(1, 50);
    expect(limit.unloadedP50Ms).toBe(50);
    // Eight at once taking 900 ms: eighteen times unloaded, but under the 1 s floor.
    fill(8, 900);
    expect(limit.limit).toBe(8);
    // Beyond the floor the limit shrinks as before: 8 -> 5.
    fill(8, 1500);
    expect(limit.limit).toBe(5);
  });

  it('probes the unloaded latency when busy work never showed it: drains to the minimum, then returns', () => {
    const { limit, clock, fill } = limitOn({ min: 2, max: 8, window: 4, probeAfterMs: 60_000 });
    // Busy from the start: the first full window has nothing to hold its latency against.
    fill(8, 1000);
    expect(limit.probing).toBe(true);
    expect(limit.limit).toBe(2);
    // Two at a time run unloaded; after three of them the limit is back where it was.
    fill(2, 400);
    expect(limit.probing).toBe(true);
    fill(2, 400);
    expect(limit.probing).toBe(false);
    expect(limit.unloadedP50Ms).toBe(400);
    expect(limit.limit).toBe(8);
    // Now 1 s at eight at once is over twice 400 ms: 8 -> 5.
    fill(8, 1000);
    expect(limit.limit).toBe(5);
    // Within the next minute no probe, however busy.
    clock.now += 30_000;
    fill(limit.limit, 700);
    expect(limit.probing).toBe(false);
    // Over a minute after the last unloaded latency a busy window probes again, but only once a
    // wall-clock minute begins, so that replicas sharing the pipeline drain together.
    clock.now = 70_000;
    fill(limit.limit, 700);
    expect(limit.probing).toBe(false);
    clock.now = 120_000;
    fill(limit.limit, 700);
    expect(limit.probing).toBe(true);
  });

  it("takes another replica's lower unloaded p50, and does not probe while another's is fresh", () => {
    const { limit, clock, fill } = limitOn({ min: 2, max: 8, window: 4, probeAfterMs: 60_000 });
    // This replica only saw the pipeline while another kept it busy: its own "unloaded" p50 is 1.5 s.
    for (let i = 0; i < 3; i++) fill(1, 1500);
    limit.shareUnloaded({ p50Ms: 450, at: clock.now });
    expect(limit.ownUnloadedP50Ms).toBe(1500);
    expect(limit.unloadedP50Ms).toBe(450);
    expect(limit.targetMs(CEILING)).toBe(900);
    // Busy past its own samples' freshness: the other replica's fresh one spares the probe.
    clock.now = 120_000;
    limit.shareUnloaded({ p50Ms: 450, at: clock.now });
    fill(limit.limit, 800);
    expect(limit.probing).toBe(false);
  });

  it("neither shrinks nor learns from work whose latency was a dependency's", () => {
    const { limit, clock, fill } = limitOn({ min: 2, max: 8, window: 4 });
    for (let i = 0; i < 6; i++) fill(1, 400);
    // Eight at once each wait out a 10 s deadline on a partner that never answers: nothing learnt.
    const hung = Array.from({ length: 8 }, () => enter(limit));
    clock.now += 10_001;
    for (const slot of hung) slot.release({ dependencyBound: true });
    expect(limit.limit).toBe(8);
    expect(limit.current).toBe(0);
    expect(limit.unloadedP50Ms).toBe(400);
  });

  it('neither shrinks nor learns from requests turned away before their work ran', () => {
    const { limit, clock, fill } = limitOn({ min: 2, max: 8, window: 4 });
    for (let i = 0; i < 6; i++) fill(1, 400);
    // a quiet spell of bad bodies answered 400 in 2 ms, one at a time, then replays that waited 40 s
    for (let i = 0; i < 50; i++) {
      const slot = enter(limit);
      clock.now += 2;
      slot.release({ turnedAway: true });
    }
    const waited = enter(limit);
    clock.now += 40_000;
    waited.release({ turnedAway: true });
    expect(limit.unloadedP50Ms).toBe(400);
    expect(limit.targetMs(CEILING)).toBe(800);
    expect(limit.limit).toBe(8);
  });

  it('does not probe while work is light', () => {
    const { limit, clock, fill } = limitOn({ min: 2, max: 8, start: 4, window: 4 });
    for (let i = 0; i < 4; i++) fill(1, 500);
    clock.now += 120_000;
    for (let i = 0; i < 8; i++) fill(2, 500);
    expect(limit.probing).toBe(false);
  });
});
