import { ReadinessRegistry } from './readiness.registry.js';

describe('ReadinessRegistry', () => {
  it('is ready only when every check passes', async () => {
    const registry = new ReadinessRegistry();
    let kafka = false;
    registry.register('kafka', () => kafka);
    registry.register('db', async () => true);
    expect(await registry.report()).toEqual({ ready: false, checks: { kafka: false, db: true } });
    kafka = true;
    expect((await registry.report()).ready).toBe(true);
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
