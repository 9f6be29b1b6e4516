import { requestContext } from '@jobs/observability';
import { KickableLoop } from './kickable-loop.js';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/** A loop whose first pass waits until `release()`; every pass asks for the next in 60 s. */
function heldFirstPass() {
  let passes = 0;
  let release!: () => void;
  const loop = new KickableLoop(async () => {
    passes += 1;
    if (passes === 1) await new Promise<void>((r) => (release = r));
    return 60_000;
  });
  return { loop, passes: () => passes, release: () => release() };
}

describe('KickableLoop', () => {
  it('runs its passes outside the request that kicked it', async () => {
    const seen: Array<string | undefined> = [];
    const loop = new KickableLoop(async () => (seen.push(requestContext.current()?.requestId), 60_000));
    requestContext.run({ requestId: 'req_kicker', stages: [] }, () => loop.start());
    await tick(5);
    requestContext.run({ requestId: 'req_kicker', stages: [] }, () => loop.kick());
    await tick(5);
    expect(seen).toEqual([undefined, undefined]);
    await loop.stop();
  });

  it('runs a pass at start and again after the delay the pass returns', async () => {
    let passes = 0;
    const loop = new KickableLoop(async () => (++passes, 20));
    loop.start();
    await tick(5);
    expect(passes).toBe(1);
    await tick(30);
    expect(passes).toBe(2);
    await loop.stop();
  });

  it('can wait before its first pass', async () => {
    let passes = 0;
    const loop = new KickableLoop(async () => (++passes, 60_000));
    loop.start(30);
    await tick(10);
    expect(passes).toBe(0);
    await tick(40);
    expect(passes).toBe(1);
    await loop.stop();
  });

  it('coalesces kicks during a pass into exactly one more pass right after it', async () => {
    const { loop, passes, release } = heldFirstPass();
    loop.start();
    await tick(5);
    loop.kick();
    loop.kick();
    loop.kick();
    release();
    await tick(5);
    expect(passes()).toBe(2);
    await tick(20);
    expect(passes()).toBe(2);
    await loop.stop();
  });

  it('stop waits for the pass under way and runs no more', async () => {
    let passes = 0;
    let finished = false;
    const loop = new KickableLoop(async () => {
      passes += 1;
      await tick(20);
      finished = true;
      return 0;
    });
    loop.start();
    await tick(5);
    await loop.stop();
    expect(finished).toBe(true);
    loop.kick();
    await tick(10);
    expect(passes).toBe(1);
    expect(loop.isStopped).toBe(true);
  });

  it('wakeWithin brings a far pass forward but never delays a nearer one', async () => {
    let passes = 0;
    const loop = new KickableLoop(async () => (++passes, passes === 1 ? 60_000 : 60));
    try {
      loop.start();
      await tick(5);
      expect(passes).toBe(1);
      loop.wakeWithin(20); // the next pass was 60 s away
      await tick(10);
      expect(passes).toBe(1);
      await tick(25);
      expect(passes).toBe(2); // the next one is 60 ms away
      loop.wakeWithin(60_000);
      await tick(80);
      expect(passes).toBe(3);
    } finally {
      await loop.stop();
    }
  });

  it('wakeWithin during a pass bounds the delay that pass returns', async () => {
    const { loop, passes, release } = heldFirstPass();
    loop.start();
    await tick(5);
    loop.wakeWithin(20);
    release();
    await tick(5);
    expect(passes()).toBe(1);
    await tick(30);
    expect(passes()).toBe(2);
    await loop.stop();
  });
});
