import { lowestFresh } from './admission-baseline.exchange.js';

describe("the replicas' unloaded latencies", () => {
  const now = 10 * 60_000;

  it('takes the lowest fresh report of the other replicas, with the newest time', () => {
    expect(lowestFresh({ self: `100:${now}`, b: `450:${now - 1000}`, c: `700:${now - 500}` }, 'self', now)).toEqual({
      p50Ms: 450,
      at: now - 500,
    });
  });

  it('leaves out its own report, stale reports and garbage', () => {
    expect(
      lowestFresh({ self: `100:${now}`, b: `300:${now - 6 * 60_000}`, c: 'nonsense' }, 'self', now),
    ).toBeUndefined();
  });
});
