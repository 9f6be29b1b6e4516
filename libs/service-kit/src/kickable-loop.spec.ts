import { jest } from '@jest/globals';
import { requestContext } from '@jobs/observability';
import { KickableLoop } from './kickable-loop.js';

// Fake timers: the loop's schedule is asserted to the millisecond, whatever the machine's load.
const tick = (ms = 0) => jest.advanceTimersByTimeAsync(ms);

const loops: KickableLoop[] = [];
/** A loop stopped after its test, even one whose assertion failed. */
function loopOf(pass: () => Promise<number>): KickableLoop {
  const loop = new KickableLoop(pass);
  loops.push(loop);
  return loop;
}

/** A loop whose first pass waits until `release()`; every pass asks for the next in 60 s. */
function heldFirstPass() {
  let passes = 0;
  let release!: () => void;
  const loop = loopOf(async () => {
    passes += 1;
    if (passes === 1) await new Promise<void>((r) => (release = r));
    return 60_000;
  });
  return { loop, passes: () => passes, release: () => release() };
}

describe('KickableLoop', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] }));
  afterEach(async () => {
    const stopping = loops.splice(0).map((loop) => loop.stop());
    await tick(0);
    await Promise.all(stopping);
    jest.useRealTimers();
  });

  it('runs its passes outside the request that kicked it', async () => {
    const seen: Array<string | undefined> = [];
    const loop = loopOf(async () => (seen.push(requestContext.current()?.requestId), 60_000));
    requestContext.run({ requestId: 'req_kicker', stages: [] }, () => loop.start());
    await tick(5);
    requestContext.run({ requestId: 'req_kicker', stages: [] }, () => loop.kick());
    await tick(5);
    expect(seen).toEqual([undefined, undefined]);
  });

  it('runs a pass at start and again after the delay the pass returns', async () => {
    let passes = 0;
    const loop = loopOf(async () => (++passes, 20));
    loop.start();
    await tick(0);
    expect(passes).toBe(1);
    await tick(19);
    expect(passes).toBe(1);
    await tick(1);
    expect(passes).toBe(2);
  });

  it('can wait before its first pass', async () => {
    let passes = 0;
    const loop = loopOf(async () => (++passes, 60_000));
    loop.start(30);
    await tick(29);
    expect(passes).toBe(0);
    await tick(1);
    expect(passes).toBe(1);
  });

  it('coalesces kicks during a pass into exactly one more pass right after it', async () => {
    const { loop, passes, release } = heldFirstPass();
    loop.start();
    await tick(5);
    loop.kick();
    loop.kick();
    loop.kick();
    release();
    await tick(0);
    expect(passes()).toBe(2);
    await tick(59_999);
    expect(passes()).toBe(2);
  });

  it('stop waits for the pass under way and runs no more', async () => {
    let passes = 0;
    let finished = false;
    const loop = loopOf(async () => {
      passes += 1;
      await new Promise((r) => setTimeout(r, 20));
      finished = true;
      return 0;
    });
    loop.start();
    await tick(5);
    const stopped = loop.stop();
    await tick(20);
    await stopped;
    expect(finished).toBe(true);
    loop.kick();
    await tick(10);
    expect(passes).toBe(1);
    expect(loop.isStopped).toBe(true);
  });

  it('wakeWithin brings a far pass forward but never delays a nearer one', async () => {
    let passes = 0;
    const loop = loopOf(async () => (++passes, passes === 1 ? 60_000 : 60));
    loop.start();
    await tick(5);
    expect(passes).toBe(1);
    loop.wakeWithin(20); // the next pass was 60 s away
    await tick(19);
    expect(passes).toBe(1);
    await tick(1);
    expect(passes).toBe(2); // the next one is 60 ms away
    loop.wakeWithin(60_000);
    await tick(60);
    expect(passes).toBe(3);
  });

  it('wakeWithin during a pass bounds the delay that pass returns', async () => {
    const { loop, passes, release } = heldFirstPass();
    loop.start();
    await tick(5);
    loop.wakeWithin(20);
    release();
    await tick(19);
    expect(passes()).toBe(1);
    await tick(1);
    expect(passes()).toBe(2);
  });
});
