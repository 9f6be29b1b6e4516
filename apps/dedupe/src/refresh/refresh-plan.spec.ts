import { RefreshFetchRequested } from '@jobs/contracts';
import { nextBucket, planPass, planRound, type PassInput, type PlannedSweep, type RoundInput } from './refresh-plan.js';

const MIN = 60_000;
const NOW = 10_000_000_000;
const passInput = (over: Partial<PassInput> = {}): PassInput => ({
  now: NOW,
  intervalMs: MIN,
  lagMs: { provider_a: 5 * MIN, provider_b: 15 * MIN, own_index: 2 * MIN },
  partners: ['provider_a', 'provider_b'],
  lastPassAt: NOW - MIN,
  ...over,
});
const roundInput = (over: Partial<RoundInput> = {}): RoundInput => ({
  partners: ['provider_a', 'provider_b'],
  bucket: 3,
  buckets: 10,
  batchSize: 2,
  domainsByProvider: new Map([
    ['provider_a', ['c.example', 'a.example', 'b.example']],
    ['provider_b', ['a.example']],
  ]),
  ...over,
});

const asMessage = (sweep: PlannedSweep) => ({
  v: 1,
  refresh_id: 'rfr_1',
  kind: sweep.kind,
  scope: sweep.scope,
  provider: sweep.provider,
  timeout_ms: 120_000,
  ...(sweep.postedSince !== undefined ? { posted_since: sweep.postedSince } : {}),
  ...(sweep.changedSince !== undefined ? { changed_since: sweep.changedSince } : {}),
});

describe('planPass', () => {
  it('reads every partner\'s new listings since its lag and two intervals back, and the own crawler\'s changes', () => {
    const sweeps = planPass(passInput());
    expect(sweeps.map((s) => [s.kind, s.provider, s.scope.key])).toEqual([
      ['new_listings', 'provider_a', 'new_listings'],
      ['new_listings', 'provider_b', 'new_listings'],
      ['catalog_changes', 'own_index', 'catalog_changes'],
    ]);
    expect(sweeps[0]!.postedSince).toBe(NOW - 7 * MIN);
    expect(sweeps[1]!.postedSince).toBe(NOW - 17 * MIN);
    expect(sweeps[2]!.changedSince).toBe(NOW - 4 * MIN);
  });

  it('reads the change feed in the first pass too, over its lag and two intervals', () => {
    expect(planPass(passInput({ lastPassAt: null })).find((s) => s.kind === 'catalog_changes')!.changedSince).toBe(NOW - 4 * MIN);
  });

  it('reaches back to the pass before when this one comes late, so a change between them is not missed', () => {
    const late = planPass(passInput({ lastPassAt: NOW - 30 * MIN })).find((s) => s.kind === 'catalog_changes')!;
    // the last pass read up to its own start minus the lag; this window starts an interval before that
    expect(late.changedSince).toBe(NOW - 30 * MIN + MIN - 4 * MIN);
  });
});

describe('planRound', () => {
  it('re-verifies the bucket\'s companies with each partner that lists them, in sorted batches', () => {
    const sweeps = planRound(roundInput());
    expect(sweeps.map((s) => [s.kind, s.provider, s.scope.key])).toEqual([
      ['companies', 'provider_a', 'companies:3/10:0'],
      ['companies', 'provider_a', 'companies:3/10:1'],
      ['companies', 'provider_b', 'companies:3/10:0'],
    ]);
    expect(sweeps.map((s) => s.scope.filters.company_domain_or)).toEqual([['a.example', 'b.example'], ['c.example'], ['a.example']]);
  });

  it('reads the own crawler\'s whole catalog in the round of bucket 0 only', () => {
    expect(planRound(roundInput({ bucket: 0 })).filter((s) => s.provider === 'own_index').map((s) => s.kind)).toEqual(['catalog']);
    for (let bucket = 1; bucket < 10; bucket++) expect(planRound(roundInput({ bucket })).filter((s) => s.provider === 'own_index')).toEqual([]);
  });

  it('plans no company batch for a partner without open listings in the bucket', () => {
    expect(planRound(roundInput({ domainsByProvider: new Map() }))).toEqual([]);
  });
});

describe('passes and rounds', () => {
  it('are the same whatever the number of watches: they have no watch input at all, and every sweep is a valid message', () => {
    const sweeps = [...planPass(passInput()), ...planPass(passInput({ lastPassAt: null })), ...planRound(roundInput()), ...planRound(roundInput({ bucket: 0 }))];
    for (const sweep of sweeps) expect(RefreshFetchRequested.ValueSchema.safeParse(asMessage(sweep)).success).toBe(true);
  });
});

describe('nextBucket', () => {
  it('goes round the buckets, starting at 0', () => {
    expect(nextBucket(null, 10)).toBe(0);
    expect(nextBucket(3, 10)).toBe(4);
    expect(nextBucket(9, 10)).toBe(0);
  });
});
