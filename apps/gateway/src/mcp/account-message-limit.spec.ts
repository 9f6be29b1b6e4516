import { jest } from '@jest/globals';
import { AccountMessageLimit, type MessageRefusal, type Release } from './account-message-limit.js';

const tuning = { perAccount: 10, perSecond: 0, maxWaiting: 3, maxWaitMs: 5_000 };
const isRelease = (outcome: Release | MessageRefusal): outcome is Release => typeof outcome === 'function';

async function entered(limit: AccountMessageLimit, account: string, messages: number): Promise<Release> {
  const outcome = await limit.enter(account, messages);
  if (!isRelease(outcome)) throw new Error(`refused: ${outcome.reason}`);
  return outcome;
}

/** Whether a promise has settled after the microtasks queued so far. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('AccountMessageLimit', () => {
  // the waits' deadlines on a fake clock, so waiters left in a line hold no real timer
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => {
    jest.clearAllTimers();
    jest.useRealTimers();
  });

  it('lets an account’s messages in at once up to its room, a batch weighing its size', async () => {
    const limit = new AccountMessageLimit(tuning);
    await entered(limit, 'a', 6);
    await entered(limit, 'a', 4);
    expect(limit.inWork).toBe(10);
    const next = limit.enter('a', 1);
    expect(await settled(next)).toBe(false);
    expect(limit.waiting).toBe(1);
  });

  it('never makes another account wait for a busy one', async () => {
    const limit = new AccountMessageLimit(tuning);
    await entered(limit, 'busy', 10);
    void limit.enter('busy', 10);
    void limit.enter('busy', 10);
    expect(await settled(limit.enter('quiet', 1))).toBe(true);
  });

  it('lets the waiting in first come first served as room frees, a small POST never overtaking', async () => {
    const limit = new AccountMessageLimit(tuning);
    const first = await entered(limit, 'a', 8);
    const big = limit.enter('a', 5);
    const small = limit.enter('a', 1);
    expect(await settled(small)).toBe(false);
    first();
    expect(await settled(big)).toBe(true);
    expect(await settled(small)).toBe(true);
    expect(limit.inWork).toBe(6);
  });

  it('gives the room back once per release, and forgets an idle account', async () => {
    const limit = new AccountMessageLimit(tuning);
    const release = await entered(limit, 'a', 10);
    release();
    release();
    expect(limit.inWork).toBe(0);
    await entered(limit, 'a', 10);
    expect(limit.inWork).toBe(10);
  });

  it('counts a batch larger than the room as the whole room', async () => {
    const limit = new AccountMessageLimit({ ...tuning, perAccount: 4 });
    const release = await entered(limit, 'a', 10);
    expect(limit.inWork).toBe(4);
    release();
    expect(limit.inWork).toBe(0);
  });

  it('refuses at once when the account’s line is full', async () => {
    const limit = new AccountMessageLimit(tuning);
    await entered(limit, 'a', 10);
    for (let i = 0; i < tuning.maxWaiting; i++) void limit.enter('a', 1);
    expect(await limit.enter('a', 1)).toEqual({ reason: 'line_full', retryAfterSeconds: 1 });
  });

  it('refuses a POST that waited its longest, and lets the next in line in if it fits', async () => {
    const limit = new AccountMessageLimit(tuning);
    await entered(limit, 'a', 5);
    const big = limit.enter('a', 10);
    const small = limit.enter('a', 2);
    jest.advanceTimersByTime(tuning.maxWaitMs);
    expect(await big).toEqual({ reason: 'wait_too_long', retryAfterSeconds: 5 });
    expect(isRelease(await small)).toBe(true);
  });

  it('paces an account’s messages: after its first room’s worth, as many a second as allowed', async () => {
    const limit = new AccountMessageLimit({ ...tuning, perSecond: 20 });
    (await entered(limit, 'a', 10))();
    const next = limit.enter('a', 10);
    expect(await settled(next)).toBe(false);
    jest.advanceTimersByTime(400);
    expect(await settled(next)).toBe(false);
    jest.advanceTimersByTime(100);
    expect(isRelease(await next)).toBe(true);
    // another account has its own allowance
    expect(await settled(limit.enter('b', 10))).toBe(true);
  });

  it('keeps a paced account’s spent allowance while it is idle, and forgets it once whole again', async () => {
    const limit = new AccountMessageLimit({ ...tuning, perSecond: 10 });
    (await entered(limit, 'a', 10))();
    // one POST at a time does not get a new allowance with each
    const one = limit.enter('a', 1);
    expect(await settled(one)).toBe(false);
    jest.advanceTimersByTime(100);
    const release = await one;
    expect(isRelease(release)).toBe(true);
    (release as Release)();
    jest.advanceTimersByTime(1_000);
    expect(await settled(limit.enter('a', 10))).toBe(true);
  });

  it('gives the place of a caller that went away up', async () => {
    const limit = new AccountMessageLimit(tuning);
    const first = await entered(limit, 'a', 10);
    const gone = new AbortController();
    const waiting = limit.enter('a', 1, gone.signal);
    gone.abort();
    expect(await waiting).toEqual({ reason: 'abandoned', retryAfterSeconds: 1 });
    expect(limit.waiting).toBe(0);
    first();
    expect(limit.inWork).toBe(0);
  });
});
