import { isWindowSweep, PROVIDER_SLUGS, RefreshFetchRequested } from '@jobs/contracts';
import {
  decide,
  nextBucket,
  planPass,
  planRound,
  refreshCallTimeoutMs,
  ROUND_SWEEP_DOMAINS,
  ROUND_SWEEP_LISTING_IDS,
  ROUND_SWEEP_LISTINGS,
  roundCycle,
  roundDueAt,
  type DecisionRules,
  type PassInput,
  type PlannedSweep,
  type RoundDomain,
  type RoundInput,
  type SequenceState,
} from './refresh-plan.js';

const MIN = 60_000;
const NOW = 10_000_000_000;
const passInput = (over: Partial<PassInput> = {}): PassInput => ({
  provider: 'provider_a',
  now: NOW,
  intervalMs: MIN,
  lagMs: 5 * MIN,
  lastReadAt: NOW - MIN,
  ...over,
});
const at = (domain: string, listings: number, oldestSeenAt = NOW - 9 * MIN): RoundDomain => ({
  domain,
  listings,
  oldestSeenAt,
});
const roundInput = (over: Partial<RoundInput> = {}): RoundInput => ({
  provider: 'provider_a',
  bucket: 3,
  cycle: 9,
  sweepListings: 10,
  domains: [at('c.example', 4), at('a.example', 3), at('b.example', 5), at('a.example', 3)],
  ...over,
});

const asMessage = (sweep: PlannedSweep) => ({
  v: 1,
  refresh_id: 'rfr_1',
  kind: sweep.kind,
  scope: sweep.scope,
  provider: sweep.provider,
  timeout_ms: 120_000,
  call_timeout_ms: 30_000,
  ...(sweep.listedSince !== undefined ? { listed_since: sweep.listedSince } : {}),
  ...(sweep.changedSince !== undefined ? { changed_since: sweep.changedSince } : {}),
  ...(isWindowSweep(sweep.kind) ? {} : { due_at: roundDueAt(NOW, MIN) }),
});

describe('planPass', () => {
  it("reads a partner's new listings since two intervals back, the own crawler's change feed its lag further", () => {
    expect(planPass(passInput())).toEqual({
      kind: 'new_listings',
      provider: 'provider_a',
      scope: { key: 'new_listings', filters: {} },
      listedSince: NOW - 2 * MIN,
    });
    expect(planPass(passInput({ provider: 'own_index', lagMs: 2 * MIN }))).toEqual({
      kind: 'catalog_changes',
      provider: 'own_index',
      scope: { key: 'catalog_changes', filters: {} },
      changedSince: NOW - 4 * MIN,
    });
  });

  it("reads the same window in a provider's first pass", () => {
    expect(planPass(passInput({ lastReadAt: null })).listedSince).toBe(NOW - 2 * MIN);
  });

  it(
    'reaches back to the last pass that read the window when ' +
      'passes came late or failed, so nothing that moved between is ' +
      'missed',
    () => {
      const late = planPass(passInput({ provider: 'own_index', lagMs: 2 * MIN, lastReadAt: NOW - 30 * MIN }));
      // the last read covered up to its own start minus the lag; this window starts an interval before that
      expect(late.changedSince).toBe(NOW - 30 * MIN + MIN - 4 * MIN);
      expect(planPass(passInput({ lastReadAt: NOW - 30 * MIN })).listedSince).toBe(NOW - 30 * MIN + MIN - 2 * MIN);
    },
  );
});

describe('planRound', () => {
  it(
    "re-verifies the round's companies with the partner in sweeps " +
      'of about the same number of stored listings, each domain ' +
      'once',
    () => {
      const sweeps = planRound(roundInput());
      expect(sweeps.map((s) => [s.kind, s.provider, s.scope.key])).toEqual([
        ['companies', 'provider_a', 'companies:3/9:0'],
        ['companies', 'provider_a', 'companies:3/9:1'],
      ]);
      // 3 + 5 listings in the first, the 4 of c.example would make 12
      expect(sweeps.map((s) => s.scope.filters.company_domain_or)).toEqual([['a.example', 'b.example'], ['c.example']]);
    },
  );

  it(
    'reads the companies seen longest ago first, so a job keeps ' + 'its place in the round from one cycle to the next',
    () => {
      const sweeps = planRound(
        roundInput({
          domains: [
            at('a.example', 4, NOW - 8 * MIN),
            at('b.example', 4, NOW - 9 * MIN),
            at('c.example', 4, NOW - 10 * MIN),
          ],
        }),
      );
      expect(sweeps.map((s) => s.scope.filters.company_domain_or)).toEqual([['c.example', 'b.example'], ['a.example']]);
    },
  );

  it(
    `gives a company with more listings than a sweep holds a ` +
      `sweep of its own, and at most ${ROUND_SWEEP_DOMAINS} domains ` +
      `to a sweep`,
    () => {
      const big = planRound(
        roundInput({ domains: [at('a.example', 2), at('big.example', 25, NOW - 10 * MIN), at('b.example', 2)] }),
      );
      expect(big.map((s) => s.scope.filters.company_domain_or)).toEqual([['big.example'], ['a.example', 'b.example']]);
      const small = Array.from({ length: 2 * ROUND_SWEEP_DOMAINS + 1 }, (_, i) =>
        at(`d${String(i).padStart(3, '0')}.example`, 1),
      );
      const sweeps = planRound(roundInput({ sweepListings: undefined, domains: small }));
      expect(sweeps.map((s) => s.scope.filters.company_domain_or!.length)).toEqual([
        ROUND_SWEEP_DOMAINS,
        ROUND_SWEEP_DOMAINS,
        1,
      ]);
    },
  );

  it('at 100,000 open jobs, a round is a bounded number of sweeps of bounded size', () => {
    // one bucket of nine of a partner listing half of 100,000 jobs at 10,000 companies: 5,553 listings at 1,111
    // companies
    const domains = Array.from({ length: 1_111 }, (_, i) => at(`c${i}.example`, 3 + (i % 5), NOW - 9 * MIN + i * 30));
    const total = domains.reduce((n, d) => n + d.listings, 0);
    const sweeps = planRound(roundInput({ sweepListings: undefined, domains }));
    const listings = new Map(domains.map((d) => [d.domain, d.listings]));
    const sizes = sweeps.map((s) => s.scope.filters.company_domain_or!.reduce((n, d) => n + listings.get(d)!, 0));
    expect(sweeps.length).toBeGreaterThanOrEqual(Math.ceil(total / ROUND_SWEEP_LISTINGS));
    expect(sweeps.length).toBeLessThanOrEqual(Math.ceil(total / (ROUND_SWEEP_LISTINGS - 7)));
    // a sweep is closed when the next company (at most 7 listings) would not fit
    for (const size of sizes.slice(0, -1)) expect(size).toBeGreaterThan(ROUND_SWEEP_LISTINGS - 7);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(ROUND_SWEEP_LISTINGS);
    expect(new Set(sweeps.flatMap((s) => s.scope.filters.company_domain_or)).size).toBe(domains.length);
  });

  it("reads the own crawler's whole catalog in its first round only, its companies as a partner's after", () => {
    expect(planRound(roundInput({ provider: 'own_index', bucket: 0, firstRound: true })).map((s) => s.kind)).toEqual([
      'catalog',
    ]);
    for (let bucket = 0; bucket < 9; bucket++) {
      expect(planRound(roundInput({ provider: 'own_index', bucket })).map((s) => [s.kind, s.scope.key])).toEqual([
        ['companies', `companies:${bucket}/9:0`],
        ['companies', `companies:${bucket}/9:1`],
      ]);
    }
  });

  it('reads listings at companies without a domain by id, seen longest ago first, after the company sweeps', () => {
    const listings = Array.from({ length: ROUND_SWEEP_LISTING_IDS + 2 }, (_, i) => ({
      providerJobId: `e-${String(i).padStart(3, '0')}`,
      seenAt: NOW - i * 1_000,
    }));
    const sweeps = planRound(
      roundInput({ provider: 'provider_e', domains: [at('a.example', 2)], listings: [...listings, listings[0]!] }),
    );
    expect(sweeps.map((s) => [s.kind, s.scope.key, s.scope.listing_ids?.length])).toEqual([
      ['companies', 'companies:3/9:0', undefined],
      ['listings', 'listings:3/9:0', ROUND_SWEEP_LISTING_IDS],
      ['listings', 'listings:3/9:1', 2],
    ]);
    const ids = sweeps.flatMap((s) => s.scope.listing_ids ?? []);
    expect(ids).toEqual(listings.map((l) => l.providerJobId).reverse());
    for (const sweep of sweeps) {
      const message = { v: 1, refresh_id: 'rfr_1', ...sweep, timeout_ms: 120_000 };
      expect(RefreshFetchRequested.ValueSchema.safeParse(message).success).toBe(true);
    }
  });

  it('plans no company sweep for a partner without open listings in the round', () => {
    expect(planRound(roundInput({ domains: [] }))).toEqual([]);
  });
});

describe('the freshness bound', () => {
  it(
    'splits the store into one bucket fewer than the bound has ' +
      'intervals: a job read at the start of a round is read again ' +
      'by the end of the round a cycle later',
    () => {
      expect(roundCycle(10)).toBe(9);
      expect(roundCycle(2)).toBe(1);
      expect(roundCycle(1)).toBe(1);
    },
  );

  it('has a round due 3 % of an interval before its interval ends', () => {
    expect(roundDueAt(NOW, MIN)).toBe(NOW + 58_200);
    expect(roundDueAt(NOW, 2_000)).toBe(NOW + 1_940);
  });
});

describe('passes and rounds', () => {
  it(
    'are the same whatever the number of watches: they have no ' +
      'watch input at all, and every sweep is a valid message',
    () => {
      const sweeps = PROVIDER_SLUGS.flatMap((provider) => [
        planPass(passInput({ provider })),
        planPass(passInput({ provider, lastReadAt: null })),
        ...planRound(roundInput({ provider })),
        ...planRound(roundInput({ provider, bucket: 0, firstRound: true })),
      ]);
      for (const sweep of sweeps)
        expect(RefreshFetchRequested.ValueSchema.safeParse(asMessage(sweep)).success).toBe(true);
    },
  );
});

describe('decide', () => {
  const rules = (over: Partial<DecisionRules> = {}): DecisionRules => ({
    now: NOW,
    intervalMs: MIN,
    staleMs: 10 * MIN,
    latestRequestAt: null,
    ...over,
  });
  const state = (last: SequenceState['last']): SequenceState => ({ kind: 'pass', provider: 'provider_b', last });

  it('starts a sequence that never ran, on schedule or for a request', () => {
    expect(decide(state(null), rules())).toEqual({ start: 'schedule' });
    expect(decide(state(null), rules({ latestRequestAt: NOW - 5 }))).toEqual({ start: 'request' });
  });

  it('never starts while its last run has sweeps out, until that run is stale', () => {
    const running = state({ startedAt: NOW - 2 * MIN, bucket: null, openSweeps: 1 });
    expect(decide(running, rules({ latestRequestAt: NOW }))).toEqual({ waiting: 'running' });
    expect(decide(running, rules({ now: NOW + 9 * MIN }))).toEqual({ start: 'schedule' });
  });

  it('serves a request that arrived after the last run started at once, else waits for the interval', () => {
    const ended = state({ startedAt: NOW - 10_000, bucket: null, openSweeps: 0 });
    expect(decide(ended, rules({ latestRequestAt: NOW - 20_000 }))).toEqual({
      waiting: 'interval',
      dueAt: NOW - 10_000 + MIN,
    });
    expect(decide(ended, rules({ latestRequestAt: NOW - 5_000 }))).toEqual({ start: 'request' });
    expect(decide(ended, rules({ now: NOW - 10_000 + MIN - 100 }))).toEqual({ start: 'schedule' });
  });
});

describe('nextBucket', () => {
  it('goes round the buckets of the cycle, starting at 0', () => {
    expect(nextBucket(null, 9)).toBe(0);
    expect(nextBucket(3, 9)).toBe(4);
    expect(nextBucket(8, 9)).toBe(0);
    // a bucket of a longer cycle (before REFRESH_BUCKETS changed) goes on in the new one
    expect(nextBucket(9, 9)).toBe(1);
  });
});

describe('refreshCallTimeoutMs', () => {
  it('is an interval, at least 5 s and at most 30 s', () => {
    expect(refreshCallTimeoutMs(2_000)).toBe(5_000);
    expect(refreshCallTimeoutMs(10_000)).toBe(10_000);
    expect(refreshCallTimeoutMs(60_000)).toBe(30_000);
  });
});
