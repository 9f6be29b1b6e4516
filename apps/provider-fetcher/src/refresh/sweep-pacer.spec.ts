import { ROUND_SWEEPS, SweepPacer } from './sweep-pacer.js';

const settle = () => new Promise((r) => setImmediate(r));

describe('SweepPacer', () => {
  it(`runs ${ROUND_SWEEPS} of a round's sweeps at a time, the next in arrival order as one ends, and a pass's sweeps at once`, async () => {
    const pacer = new SweepPacer();
    const started: string[] = [];
    for (const sweep of ['round a', 'round b', 'round c', 'round d']) void pacer.acquire(false).then(() => started.push(sweep));
    void pacer.acquire(true).then(() => started.push('pass'));
    await settle();
    expect(started).toEqual(['round a', 'round b', 'pass']);
    // a pass's sweep ending frees no round place
    pacer.release(true);
    await settle();
    expect(started).toHaveLength(3);
    pacer.release(false);
    await settle();
    expect(started.at(-1)).toBe('round c');
    pacer.release(false);
    pacer.release(false);
    await settle();
    expect(started.at(-1)).toBe('round d');
    // places freed once nobody waits: the next round sweep starts at once
    pacer.release(false);
    pacer.release(false);
    let fifth = false;
    void pacer.acquire(false).then(() => (fifth = true));
    await settle();
    expect(fifth).toBe(true);
  });
});
