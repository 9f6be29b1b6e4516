import { LiveWorkGate } from './live-work-gate.js';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('LiveWorkGate', () => {
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
    await tick(10);
    expect(through).toBe(false); // still within the quiet time
    await tick(40);
    expect(through).toBe(true);
    await background;
  });

  it('never holds background work longer than asked, however busy live work stays', async () => {
    const gate = new LiveWorkGate(30);
    let release!: () => void;
    const live = gate.live(() => new Promise<void>((r) => (release = r)));
    const started = Date.now();
    expect(await gate.yieldToLive(50)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(Date.now() - started).toBeLessThan(1_000);
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
