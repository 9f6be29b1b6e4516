import { type Admitted, FairQueue, type FairQueueTuning, type QueueRefusal } from './fair-queue.js';
import { InFlightLimit, type InFlightTuning } from './in-flight-limit.js';

const CEILING = 10_000;

/** A queue in front of a fixed limit, on a clock and timers the test moves. */
function queueOf(slots: number, tuning: Partial<FairQueueTuning> = {}, limitTuning: Partial<InFlightTuning> = {}) {
  const clock = { now: 0 };
  const timers: Array<{ at: number; fn: () => void; cleared: boolean }> = [];
  const limit = new InFlightLimit(
    { min: slots, max: slots, window: 1000, tolerance: 2, ...limitTuning },
    () => clock.now,
  );
  const queue = new FairQueue(limit, { maxQueued: 100, maxWaitMs: 5_000, ...tuning }, () => clock.now, {
    set: (fn, ms) => {
      const timer = { at: clock.now + ms, fn, cleared: false };
      timers.push(timer);
      return timer;
    },
    clear: (timer) => void ((timer as { cleared: boolean }).cleared = true),
  });
  const advance = async (ms: number) => {
    clock.now += ms;
    for (const timer of timers.filter((t) => !t.cleared && t.at <= clock.now)) {
      timer.cleared = true;
      timer.fn();
    }
    await Promise.resolve();
  };
  return { queue, limit, clock, advance };
}

/** An account that takes the room past the limit, so that other accounts under their floor wait too. */
const NEWCOMER = 'acct_newcomer';

const isAdmitted = (outcome: unknown): outcome is Admitted =>
  typeof outcome === 'object' && outcome !== null && 'release' in outcome;

function enterNow(queue: FairQueue, account: string): Admitted {
  const outcome = queue.enter({ account, deadlineMs: CEILING, ceilingMs: CEILING });
  if (!isAdmitted(outcome)) throw new Error(`expected a slot at once, got ${JSON.stringify(outcome)}`);
  return outcome;
}

/** Records the order in which waiting requests are admitted. */
function track(order: string[], name: string, outcome: ReturnType<FairQueue['enter']>) {
  return Promise.resolve(outcome).then((settled) => {
    order.push(isAdmitted(settled) ? name : `${name}:${(settled as QueueRefusal).reason}`);
    return settled;
  });
}

describe('fair admission', () => {
  it('admits at once while the limit has room and nobody waits', () => {
    const { queue, limit } = queueOf(2);
    const a = enterNow(queue, 'acct_a');
    enterNow(queue, 'acct_b');
    expect(limit.current).toBe(2);
    expect(a.waitedMs).toBe(0);
  });

  it('tells the limit the pipeline is shared while another account sent a request within 10 s', async () => {
    const { queue, limit, advance } = queueOf(4);
    enterNow(queue, 'acct_a').release();
    expect(limit.sharing).toBe(false);
    enterNow(queue, 'acct_b').release();
    expect(limit.sharing).toBe(true);
    await advance(6_000);
    enterNow(queue, 'acct_b').release();
    expect(limit.sharing).toBe(true);
    // acct_a's last request is now over 10 s old: acct_b is alone.
    await advance(5_000);
    enterNow(queue, 'acct_b').release();
    expect(limit.sharing).toBe(false);
  });

  it('counts the accounts other replicas saw lately: a busy account here shares with a quiet one elsewhere', () => {
    const { queue, limit } = queueOf(4);
    enterNow(queue, 'acct_busy').release();
    expect(limit.sharing).toBe(false);
    // another replica reports what it saw: this replica's own account alone is no sharing
    queue.shareAccounts(['acct_busy']);
    expect(limit.sharing).toBe(false);
    queue.shareAccounts(['acct_busy', 'acct_quiet']);
    expect(limit.sharing).toBe(true);
    enterNow(queue, 'acct_busy').release();
    expect(limit.sharing).toBe(true);
    expect(queue.recentAccounts().map(([account]) => account)).toEqual(['acct_busy']);
    queue.shareAccounts(['acct_busy']);
    expect(limit.sharing).toBe(false);
  });

  it('lets a full limit make a search wait, and admits it when a slot is released', async () => {
    const { queue, clock } = queueOf(1);
    const first = enterNow(queue, 'acct_a');
    const waiting = queue.enter({ account: 'acct_a', deadlineMs: CEILING, ceilingMs: CEILING });
    expect(waiting).toBeInstanceOf(Promise);
    expect(queue.length).toBe(1);
    clock.now += 300;
    first.release();
    const admitted = await waiting;
    expect(isAdmitted(admitted) && admitted.waitedMs).toBe(300);
    expect(queue.length).toBe(0);
  });

  it('gives a freed slot to the waiting account that holds the fewest, however many the busy one queued', async () => {
    const { queue } = queueOf(4);
    const busy = Array.from({ length: 4 }, () => enterNow(queue, 'acct_busy'));
    const order: string[] = [];
    const waits = [
      ...Array.from({ length: 6 }, (_, i) =>
        track(order, `busy${i}`, queue.enter({ account: 'acct_busy', deadlineMs: CEILING, ceilingMs: CEILING })),
      ),
      track(order, 'quiet0', queue.enter({ account: 'acct_quiet', deadlineMs: CEILING, ceilingMs: CEILING })),
      track(order, 'quiet1', queue.enter({ account: 'acct_quiet', deadlineMs: CEILING, ceilingMs: CEILING })),
    ];
    busy[0]!.release();
    await Promise.resolve();
    busy[1]!.release();
    await Promise.resolve();
    busy[2]!.release();
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    // quiet0 (holding none), quiet1 (quiet holds 1, busy 2), then the busy account's oldest.
    expect(order).toEqual(['quiet0', 'quiet1', 'busy0']);
    expect(queue.length).toBe(5);
    void waits;
  });

  it('serves one account first in, first out', async () => {
    const { queue } = queueOf(1);
    const held = enterNow(queue, 'acct_a');
    const order: string[] = [];
    const waits = [1, 2, 3].map((i) =>
      track(order, `a${i}`, queue.enter({ account: 'acct_a', deadlineMs: CEILING, ceilingMs: CEILING })),
    );
    held.release();
    const second = (await waits[0]) as Admitted;
    second.release();
    const third = (await waits[1]) as Admitted;
    third.release();
    await waits[2];
    expect(order).toEqual(['a1', 'a2', 'a3']);
  });

  it('refuses a waiting search with Retry-After once its wait runs out', async () => {
    const { queue, advance } = queueOf(1, { maxWaitMs: 2_000 });
    enterNow(queue, 'acct_a');
    enterNow(queue, NEWCOMER);
    const waiting = queue.enter({ account: 'acct_b', deadlineMs: CEILING, ceilingMs: CEILING });
    await advance(1_999);
    expect(queue.length).toBe(1);
    await advance(1);
    const outcome = (await waiting) as QueueRefusal;
    expect(outcome.reason).toBe('timed_out');
    expect(outcome.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(queue.length).toBe(0);
  });

  it("never waits past what the search's own deadline leaves after a typical answer", async () => {
    const { queue, advance } = queueOf(1, { maxWaitMs: 60_000 });
    enterNow(queue, 'acct_a');
    enterNow(queue, NEWCOMER);
    // The deadline is 3 s and answers are assumed to take 1 s until one was seen: 2 s of wait at most.
    const waiting = queue.enter({ account: 'acct_b', deadlineMs: 3_000, ceilingMs: 8_000 });
    await advance(2_000);
    expect(((await waiting) as QueueRefusal).reason).toBe('timed_out');
  });

  it('leaves an unloaded answer of the deadline, not the hold time a hanging partner stretched', async () => {
    // (A floor above the stretched latencies keeps the limit at 4 throughout.)
    const { queue, limit, clock } = queueOf(4, { maxWaitMs: 60_000 }, { min: 2, floorMs: 5_000 });
    // Alone, answers take 400 ms; then a partner hangs and every search holds its slot for its whole 2 s deadline.
    for (let i = 0; i < 3; i++) {
      const slot = enterNow(queue, 'acct_a');
      clock.now += 400;
      slot.release();
    }
    expect(limit.unloadedP50Ms).toBe(400);
    for (let round = 0; round < 5; round++) {
      const slots = Array.from({ length: 4 }, () => enterNow(queue, 'acct_a'));
      clock.now += 2_000;
      for (const slot of slots) slot.release();
    }
    Array.from({ length: 4 }, () => enterNow(queue, 'acct_a'));
    enterNow(queue, NEWCOMER);
    // A quiet account's 2 s search may still wait up to 1.6 s for the next slot, instead of being refused.
    expect(queue.enter({ account: 'acct_b', deadlineMs: 2_000, ceilingMs: 7_000 })).toBeInstanceOf(Promise);
  });

  it("judges a quiet account's wait by its place ahead of a busy account's line, not behind it", () => {
    const { queue, clock } = queueOf(2, { maxWaitMs: 400 });
    // Answers take 1 s: with two slots, one starts every 500 ms.
    for (let i = 0; i < 5; i++) {
      const slot = enterNow(queue, 'acct_a');
      clock.now += 1_000;
      slot.release();
    }
    enterNow(queue, 'acct_a');
    enterNow(queue, 'acct_a');
    // The busy account holds both slots: its next search starts within 500 ms (within twice its 400 ms), the one after
    // 1 s.
    expect(queue.enter({ account: 'acct_a', deadlineMs: CEILING, ceilingMs: CEILING })).toBeInstanceOf(Promise);
    expect((queue.enter({ account: 'acct_a', deadlineMs: CEILING, ceilingMs: CEILING }) as QueueRefusal).reason).toBe(
      'wait_too_long',
    );
    // An account holding none starts at once in the room past the limit.
    expect(isAdmitted(queue.enter({ account: 'acct_b', deadlineMs: CEILING, ceilingMs: CEILING }))).toBe(true);
    // Another one, the room full, takes the next free slot ahead of the busy one's waiting search: it waits.
    expect(queue.enter({ account: 'acct_c', deadlineMs: CEILING, ceilingMs: CEILING })).toBeInstanceOf(Promise);
  });

  it('refuses at once when its expected wait, at the pace slots free, exceeds the wait it may have', async () => {
    const { queue, clock } = queueOf(1, { maxWaitMs: 3_000 });
    // Answers take 1 s: with one slot, one starts a second.
    for (let i = 0; i < 5; i++) {
      const slot = enterNow(queue, 'acct_a');
      clock.now += 1_000;
      slot.release();
    }
    enterNow(queue, 'acct_a');
    // The first six in line would start within 1 to 6 s: within twice the 3 s they may wait, they get their chance;
    // a seventh would wait 7 s, clearly out of reach.
    for (let i = 0; i < 6; i++)
      expect(queue.enter({ account: 'acct_a', deadlineMs: CEILING, ceilingMs: CEILING })).toBeInstanceOf(Promise);
    const refused = queue.enter({ account: 'acct_a', deadlineMs: CEILING, ceilingMs: CEILING }) as QueueRefusal;
    expect(refused.reason).toBe('wait_too_long');
    expect(refused.retryAfterSeconds).toBe(8); // the one in flight and seven in line, a second each
    // Another account holding none starts at once, in the room past the limit.
    expect(isAdmitted(queue.enter({ account: 'acct_b', deadlineMs: CEILING, ceilingMs: CEILING }))).toBe(true);
  });

  it(
    'starts an account holding no slot at once past a full limit, ' + "within a quarter of it, and never a busy one's",
    () => {
      const { queue, limit } = queueOf(8);
      for (let i = 0; i < 8; i++) enterNow(queue, 'acct_busy');
      // The busy account waits for its own slots to free.
      expect(queue.enter({ account: 'acct_busy', deadlineMs: CEILING, ceilingMs: CEILING })).toBeInstanceOf(Promise);
      // Two newcomers (a quarter of 8) start at once, beside the busy account's waiting search.
      expect(isAdmitted(queue.enter({ account: 'acct_b', deadlineMs: CEILING, ceilingMs: CEILING }))).toBe(true);
      expect(isAdmitted(queue.enter({ account: 'acct_c', deadlineMs: CEILING, ceilingMs: CEILING }))).toBe(true);
      expect(limit.current).toBe(10);
      // A third waits, and so does a newcomer's second search: it holds one now.
      expect(queue.enter({ account: 'acct_d', deadlineMs: CEILING, ceilingMs: CEILING })).toBeInstanceOf(Promise);
      expect(queue.enter({ account: 'acct_b', deadlineMs: CEILING, ceilingMs: CEILING })).toBeInstanceOf(Promise);
      expect(limit.current).toBe(10);
    },
  );

  it('starts an account holding fewer slots than its floor at once past a full limit, within the room', () => {
    const { queue, limit } = queueOf(4, { accountFloor: 2 });
    for (let i = 0; i < 4; i++) enterNow(queue, 'acct_busy');
    expect(queue.enter({ account: 'acct_busy', deadlineMs: CEILING, ceilingMs: CEILING })).toBeInstanceOf(Promise);
    // A quiet account's pace keeps two searches in flight: both start at once (the room is the floor, 2).
    enterNow(queue, 'acct_quiet');
    enterNow(queue, 'acct_quiet');
    expect(limit.current).toBe(6);
    // At its floor, its third waits its turn in the fair order like any other account's.
    expect(queue.enter({ account: 'acct_quiet', deadlineMs: CEILING, ceilingMs: CEILING })).toBeInstanceOf(Promise);
    // The room is full: another account under its floor waits too.
    expect(queue.enter({ account: 'acct_other', deadlineMs: CEILING, ceilingMs: CEILING })).toBeInstanceOf(Promise);
    expect(limit.current).toBe(6);
  });

  it("judges the wait by the pipeline's pace, not by how few searches came lately", () => {
    const { queue, clock } = queueOf(4, { maxWaitMs: 5_000 });
    // One answer of 500 ms a minute ago: the queue knows answers are quick, though few came.
    const early = enterNow(queue, 'acct_a');
    clock.now += 500;
    early.release();
    clock.now += 60_000;
    for (let i = 0; i < 4; i++) enterNow(queue, 'acct_a');
    const waits = Array.from({ length: 20 }, () =>
      queue.enter({ account: 'acct_a', deadlineMs: CEILING, ceilingMs: CEILING }),
    );
    expect(waits.every((outcome) => outcome instanceof Promise)).toBe(true);
  });

  it('judges the wait by the limit a probe returns to, not by the minimum it probes at', () => {
    const clock = { now: 0 };
    const limit = new InFlightLimit({ min: 1, max: 8, window: 8, tolerance: 2 }, () => clock.now);
    const queue = new FairQueue(limit, { maxQueued: 100, maxWaitMs: 5_000 }, () => clock.now, {
      set: () => undefined,
      clear: () => undefined,
    });
    // Busy from the start: the first full window (1 s answers) starts a probe at the minimum.
    const busy = Array.from({ length: 8 }, () => enterNow(queue, 'acct_a'));
    clock.now += 1_000;
    for (const slot of busy) slot.release();
    expect(limit.probing).toBe(true);
    expect(limit.limit).toBe(1);
    enterNow(queue, 'acct_a');
    // Twenty in line start within 20 x 1 s / 8 = 2.5 s at the limit the probe returns to; at 1 they would wait 20 s.
    const waits = Array.from({ length: 20 }, () =>
      queue.enter({ account: 'acct_a', deadlineMs: CEILING, ceilingMs: CEILING }),
    );
    expect(waits.every((outcome) => outcome instanceof Promise)).toBe(true);
  });

  it('refuses at once when the queue is full', () => {
    const { queue } = queueOf(1, { maxQueued: 2 });
    enterNow(queue, 'acct_a');
    enterNow(queue, NEWCOMER);
    void queue.enter({ account: 'acct_a', deadlineMs: CEILING, ceilingMs: CEILING });
    void queue.enter({ account: 'acct_b', deadlineMs: CEILING, ceilingMs: CEILING });
    const refused = queue.enter({ account: 'acct_c', deadlineMs: CEILING, ceilingMs: CEILING }) as QueueRefusal;
    expect(refused.reason).toBe('queue_full');
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('gives the place of a caller who went away to the next in line', async () => {
    const { queue } = queueOf(1);
    const held = enterNow(queue, 'acct_a');
    enterNow(queue, NEWCOMER);
    const gone = new AbortController();
    const abandoned = queue.enter({ account: 'acct_b', deadlineMs: CEILING, ceilingMs: CEILING, signal: gone.signal });
    const next = queue.enter({ account: 'acct_c', deadlineMs: CEILING, ceilingMs: CEILING });
    gone.abort();
    expect(((await abandoned) as QueueRefusal).reason).toBe('abandoned');
    expect(queue.length).toBe(1);
    held.release();
    expect(isAdmitted(await next)).toBe(true);
  });

  it('counts a slot once however often it is released', async () => {
    const { queue, limit } = queueOf(2);
    const a = enterNow(queue, 'acct_a');
    a.release();
    a.release();
    expect(limit.current).toBe(0);
  });
});
