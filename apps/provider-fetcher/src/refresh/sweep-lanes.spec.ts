import { MAX_SWEEP_LANES, SWEEP_LANES, SweepLanes } from './sweep-lanes.js';

const settle = () => new Promise((r) => setImmediate(r));

describe('SweepLanes', () => {
  it(`a pass's sweep waiting for a lane starts before the round's sweeps that came first`, async () => {
    // the provider's calls are all busy: only the SWEEP_LANES guaranteed lanes
    const lanes = new SweepLanes(() => ({ calls: 8, limit: 8 }));
    for (let i = 0; i < SWEEP_LANES; i++) await lanes.acquire('provider_d', false);
    const order: string[] = [];
    void lanes.acquire('provider_d', false).then(() => order.push('round 1'));
    void lanes.acquire('provider_d', false).then(() => order.push('round 2'));
    void lanes.acquire('provider_d', true).then(() => order.push('pass'));
    await settle();
    expect(order).toEqual([]);
    lanes.release('provider_d');
    await settle();
    expect(order).toEqual(['pass']);
    lanes.release('provider_d');
    lanes.release('provider_d');
    await settle();
    expect(order).toEqual(['pass', 'round 1', 'round 2']);
  });

  it(`lets up to ${MAX_SWEEP_LANES} run while the provider is idle, and a sweep beyond ${SWEEP_LANES} gives its lane back between parts once live calls need the slots`, async () => {
    let live = 0;
    const lanes = new SweepLanes(() => ({ calls: live, limit: 8 }));
    for (let i = 0; i < MAX_SWEEP_LANES; i++) await lanes.acquire('provider_a', false);
    let started = false;
    void lanes.acquire('provider_a', true).then(() => (started = true));
    await settle();
    expect(started).toBe(false);
    // live searches now hold most slots: a sweep beyond the guaranteed lanes waits between its parts
    live = 5;
    let kept = false;
    void lanes.keep('provider_a', false).then(() => (kept = true));
    await settle();
    expect(kept).toBe(false);
    // a lane freed goes to the waiting pass sweep first
    lanes.release('provider_a');
    await settle();
    expect([started, kept]).toEqual([true, false]);
  });
});
