import { jest } from '@jest/globals';
import { ReadinessRegistry } from './readiness.registry.js';

describe('ReadinessRegistry', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('is ready only when every check passes', async () => {
    const registry = new ReadinessRegistry();
    let kafka = false;
    registry.register('kafka', () => kafka);
    registry.register('db', async () => true);
    expect(await registry.report()).toEqual({ ready: false, checks: { kafka: false, db: true } });
    kafka = true;
    jest.advanceTimersByTime(500);
    expect((await registry.report()).ready).toBe(true);
  });

  it('runs the checks once for probes that come together or within half a second, then again', async () => {
    const registry = new ReadinessRegistry();
    let runs = 0;
    registry.register('services', async () => {
      runs++;
      return true;
    });
    const together = await Promise.all(Array.from({ length: 50 }, () => registry.report()));
    expect(together.every((r) => r.ready)).toBe(true);
    expect(runs).toBe(1);
    jest.advanceTimersByTime(499);
    await registry.report();
    expect(runs).toBe(1);
    jest.advanceTimersByTime(1);
    await registry.report();
    expect(runs).toBe(2);
  });

  it('treats a failing check as not ready', async () => {
    const registry = new ReadinessRegistry();
    registry.register('redis', () => Promise.reject(new Error('down')));
    expect(await registry.report()).toEqual({ ready: false, checks: { redis: false } });
  });

  it('turns unready while draining', async () => {
    const registry = new ReadinessRegistry();
    registry.register('ok', () => true);
    registry.markDraining();
    expect((await registry.report()).ready).toBe(false);
  });
});
