import { ROUND_SWEEPS, ROUND_SWEEPS_PER_PROVIDER, SweepPacer } from './sweep-pacer.js';

const settle = () => new Promise((r) => setImmediate(r));

describe('SweepPacer', () => {
  it('runs a round sweep per provider at a time within the places, providers taking turns, and a pass sweep at once', async () => {
    const pacer = new SweepPacer(2, 1);
    const started: string[] = [];
    const round = (provider: 'provider_a' | 'provider_b' | 'provider_c', name: string) => void pacer.acquire(provider, false).then(() => started.push(name));
    round('provider_a', 'a1');
    round('provider_a', 'a2');
    round('provider_a', 'a3');
    round('provider_b', 'b1');
    round('provider_c', 'c1');
    void pacer.acquire('provider_a', true).then(() => started.push('pass a'));
    await settle();
    // a1 and b1 hold the two places (a provider one at most); the pass takes none
    expect(started).toEqual(['a1', 'b1', 'pass a']);
    pacer.release('provider_a', true);
    await settle();
    expect(started).toHaveLength(3);
    // a1 ends: provider_a began waiting before provider_c, so a2 takes the place
    pacer.release('provider_a', false);
    await settle();
    expect(started.at(-1)).toBe('a2');
    // b1 ends: c's turn (a holds its one place)
    pacer.release('provider_b', false);
    await settle();
    expect(started.at(-1)).toBe('c1');
    pacer.release('provider_a', false);
    await settle();
    expect(started.at(-1)).toBe('a3');
    pacer.release('provider_c', false);
    pacer.release('provider_a', false);
    // places freed once nobody waits: the next round sweep starts at once
    let next = false;
    void pacer.acquire('provider_b', false).then(() => (next = true));
    await settle();
    expect(next).toBe(true);
  });

  it(`a silent provider holds ${ROUND_SWEEPS_PER_PROVIDER} of the ${ROUND_SWEEPS} places at most`, async () => {
    const pacer = new SweepPacer();
    let silentStarted = 0;
    for (let i = 0; i < 10; i++) void pacer.acquire('provider_b', false).then(() => (silentStarted += 1));
    let othersStarted = 0;
    for (let i = 0; i < 10; i++) void pacer.acquire(i % 2 ? 'provider_a' : 'provider_c', false).then(() => (othersStarted += 1));
    await settle();
    expect(silentStarted).toBe(ROUND_SWEEPS_PER_PROVIDER);
    expect(othersStarted).toBe(Math.min(2 * ROUND_SWEEPS_PER_PROVIDER, ROUND_SWEEPS - ROUND_SWEEPS_PER_PROVIDER));
  });
});
