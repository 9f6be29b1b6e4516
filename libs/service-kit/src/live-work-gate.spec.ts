import { jest } from '@jest/globals';
import { LiveWorkGate } from './live-work-gate.js';

// Fake timers: the quiet time is asserted to the millisecond, whatever the machine's load.
const tick = (ms = 0) => jest.advanceTimersByTimeAsync(ms);

describe('LiveWorkGate', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('lets background work through at once when no live work is in flight or recent', async () => {
    const gate = new LiveWorkGate(20);
    expect(await gate.yieldToLive(1_000)).toBe(false);
  });

  it('holds background work while live work runs and for the quiet time after it', async () => {
    const gate = new LiveWorkGate(30);
    let release!: () => void;
    const live = gate.live(() => new Promise<void>((r) => (release = r)));
    let through = false;
    const background = gate.yieldToLive(5_000).then(() => (through = true));
    await tick(40);
    expect(through).toBe(false);
    release();
    await live;
    await tick(29);
    expect(through).toBe(false); // still within the quiet time
    await tick(1);
    expect(through).toBe(true);
    await background;
  });

  it('never holds background work longer than asked, however busy live work stays', async () => {
    const gate = new LiveWorkGate(30);
    let release!: () => void;
    const live = gate.live(() => new Promise<void>((r) => (release = r)));
    let held: boolean | undefined;
    const background = gate.yieldToLive(50).then((wasHeld) => (held = wasHeld));
    await tick(49);
    expect(held).toBeUndefined();
    await tick(1);
    await background;
    expect(held).toBe(true);
    release();
    await live;
  });

  it('counts live work that fails as ended', async () => {
    const gate = new LiveWorkGate(0);
    await expect(gate.live(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await tick(1);
    expect(gate.busy).toBe(false);
  });
});
