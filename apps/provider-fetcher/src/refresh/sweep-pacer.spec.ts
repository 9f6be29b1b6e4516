import type { ProviderSlug } from '@jobs/contracts';
import { ROUND_SWEEPS, ROUND_SWEEPS_BEHIND, ROUND_SWEEPS_PER_PROVIDER, SweepPacer } from './sweep-pacer.js';

const settle = () => new Promise((r) => setImmediate(r));

/** Round sweeps asked of a pacer: which started, and each one's release. */
function rounds(pacer: SweepPacer) {
  const started: string[] = [];
  const releases = new Map<string, () => void>();
  const round = (provider: ProviderSlug, name: string, dueAt?: number) =>
    void pacer.acquire(provider, { urgent: false, dueAt }).then((release) => {
      started.push(name);
      releases.set(name, release);
    });
  const end = (name: string) => releases.get(name)!();
  return { started, round, end };
}

describe('SweepPacer', () => {
  it(
    'runs a round sweep per provider at a time within the places, ' +
      'providers taking turns, and a pass sweep at once',
    async () => {
      const pacer = new SweepPacer(2, 1);
      const { started, round, end } = rounds(pacer);
      round('provider_a', 'a1');
      round('provider_a', 'a2');
      round('provider_a', 'a3');
      round('provider_b', 'b1');
      round('provider_c', 'c1');
      let passEnd: () => void = () => undefined;
      void pacer
        .acquire('provider_a', { urgent: true })
        .then((release) => (started.push('pass a'), (passEnd = release)));
      await settle();
      // a1 and b1 hold the two places (a provider one at most); the pass takes none
      expect(started).toEqual(['a1', 'b1', 'pass a']);
      passEnd();
      await settle();
      expect(started).toHaveLength(3);
      // a1 ends: provider_a began waiting before provider_c, so a2 takes the place
      end('a1');
      await settle();
      expect(started.at(-1)).toBe('a2');
      // b1 ends: c's turn (a holds its one place)
      end('b1');
      await settle();
      expect(started.at(-1)).toBe('c1');
      end('a2');
      await settle();
      expect(started.at(-1)).toBe('a3');
      end('c1');
      end('a3');
      // a release counts once, however often it is called
      end('a3');
      // places freed once nobody waits: the next round sweep starts at once
      round('provider_b', 'b2');
      await settle();
      expect(started.at(-1)).toBe('b2');
    },
  );

  it(`a silent provider holds ${ROUND_SWEEPS_PER_PROVIDER} of the ${ROUND_SWEEPS} places at most`, async () => {
    const pacer = new SweepPacer();
    let silentStarted = 0;
    for (let i = 0; i < 10; i++) void pacer.acquire('provider_b', { urgent: false }).then(() => (silentStarted += 1));
    let othersStarted = 0;
    for (let i = 0; i < 10; i++)
      void pacer.acquire(i % 2 ? 'provider_a' : 'provider_c', { urgent: false }).then(() => (othersStarted += 1));
    await settle();
    expect(silentStarted).toBe(ROUND_SWEEPS_PER_PROVIDER);
    expect(othersStarted).toBe(Math.min(2 * ROUND_SWEEPS_PER_PROVIDER, ROUND_SWEEPS - ROUND_SWEEPS_PER_PROVIDER));
  });

  describe('a round behind its due time', () => {
    let now = 0;
    const clock = () => now;

    /**
     * A pacer with `places` shared places (one a provider) on the test's clock, whose first round
     * sweep of provider_d, due at 60 s, took `sweepMs`: the provider's recent sweep duration.
     */
    async function afterFirstSweep(places: number, sweepMs: number) {
      now = 0;
      const pacer = new SweepPacer(places, 1, 4, clock);
      const paced = rounds(pacer);
      paced.round('provider_d', 'first', 60_000);
      await settle();
      now = sweepMs;
      paced.end('first');
      return { pacer, ...paced };
    }

    it('runs one sweep at a time while the sweeps left end by the due time at the recent sweep duration', async () => {
      // a first sweep of 1 s gives the provider's duration
      const { pacer, started, round } = await afterFirstSweep(3, 1_000);
      // 10 sweeps of ~1 s due in 59 s: on time one at a time
      for (let i = 0; i < 10; i++) round('provider_d', `d${i}`, 60_000);
      await settle();
      expect(started.filter((s) => s.startsWith('d'))).toEqual(['d0']);
      expect(pacer.allowed('provider_d', Array(9).fill({ dueAt: 60_000 }))).toBe(1);
    });

    it(
      `runs as many at once as it takes to end by then, up to ` + `${ROUND_SWEEPS_BEHIND}, beyond the shared places`,
      async () => {
        const { pacer, started, round, end } = await afterFirstSweep(1, 5_000);
        // provider_a holds the one shared place
        round('provider_a', 'a1', 60_000);
        await settle();
        expect(started).toEqual(['first', 'a1']);
        // 20 sweeps of ~5 s left, due in 55 s: 100 s of work (150 with the margin), three at a time
        for (let i = 0; i < 20; i++) round('provider_d', `d${i}`, 60_000);
        await settle();
        expect(started.filter((s) => s.startsWith('d'))).toEqual(['d0', 'd1', 'd2']);
        // the due time is near: as many as allowed
        now = 50_000;
        end('d0');
        await settle();
        expect(started.filter((s) => s.startsWith('d'))).toEqual(['d0', 'd1', 'd2', 'd3', 'd4']);
        // past it, the most at once
        now = 61_000;
        expect(pacer.allowed('provider_d', [{ dueAt: 60_000 }])).toBe(ROUND_SWEEPS_BEHIND);
        // the other provider, on schedule, still waits for its shared place only
        round('provider_a', 'a2');
        await settle();
        expect(started).not.toContain('a2');
        end('a1');
        await settle();
        expect(started).toContain('a2');
      },
    );

    it(
      'once behind, runs the rest of its round one at a time at ' + 'least, without waiting for a shared place',
      async () => {
        const { pacer, started, round, end } = await afterFirstSweep(1, 5_000);
        round('provider_a', 'a1');
        await settle();
        // 20 sweeps of ~5 s due in 55 s: behind, three at a time
        for (let i = 0; i < 20; i++) round('provider_d', `d${i}`, 60_000);
        await settle();
        expect(started.filter((s) => s.startsWith('d'))).toEqual(['d0', 'd1', 'd2']);
        // they end fast: the sweeps left are soon on time one at a time (on schedule they would need
        // the shared place provider_a holds), and every one starts all the same
        const ended = new Set<string>();
        for (let i = 0; i < 40 && started.filter((s) => s.startsWith('d')).length < 20; i++) {
          now += 100;
          for (const name of started.filter((s) => s.startsWith('d') && !ended.has(s))) {
            ended.add(name);
            end(name);
          }
          await settle();
        }
        expect(pacer.allowed('provider_d', [{ dueAt: 60_000 }])).toBe(1);
        expect(started.filter((s) => s.startsWith('d'))).toHaveLength(20);
        expect(started).not.toContain('next');
        // its round all started: the next sweep on schedule waits for the shared place again
        end('d19');
        round('provider_d', 'next');
        await settle();
        expect(started).not.toContain('next');
        end('a1');
        await settle();
        expect(started).toContain('next');
      },
    );

    it(
      'without a due time or a duration yet, one at a time; a sweep ' +
        'past its due time without a duration, the most',
      () => {
        now = 10_000;
        const pacer = new SweepPacer(3, 1, 4, clock);
        expect(pacer.allowed('provider_b', [{ dueAt: null }, { dueAt: null }])).toBe(1);
        expect(pacer.allowed('provider_b', [{ dueAt: 60_000 }, { dueAt: 60_000 }])).toBe(1);
        expect(pacer.allowed('provider_b', [{ dueAt: 5_000 }])).toBe(4);
      },
    );
  });
});
