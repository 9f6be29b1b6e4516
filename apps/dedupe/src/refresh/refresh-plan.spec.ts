import { PROVIDER_SLUGS, RefreshFetchRequested } from '@jobs/contracts';
import { decide, nextBucket, planPass, planRound, refreshCallTimeoutMs, type DecisionRules, type PassInput, type PlannedSweep, type RoundInput, type SequenceState } from './refresh-plan.js';

const MIN = 60_000;
const NOW = 10_000_000_000;
const passInput = (over: Partial<PassInput> = {}): PassInput => ({ provider: 'provider_a', now: NOW, intervalMs: MIN, lagMs: 5 * MIN, lastReadAt: NOW - MIN, ...over });
const roundInput = (over: Partial<RoundInput> = {}): RoundInput => ({ provider: 'provider_a', bucket: 3, buckets: 10, batchSize: 2, domains: ['c.example', 'a.example', 'b.example', 'a.example'], ...over });

const asMessage = (sweep: PlannedSweep) => ({
  v: 1,
  refresh_id: 'rfr_1',
  kind: sweep.kind,
  scope: sweep.scope,
  provider: sweep.provider,
  timeout_ms: 120_000,
  call_timeout_ms: 30_000,
  ...(sweep.postedSince !== undefined ? { posted_since: sweep.postedSince } : {}),
  ...(sweep.changedSince !== undefined ? { changed_since: sweep.changedSince } : {}),
});

describe('planPass', () => {
  it("reads a partner's new listings since its lag and two intervals back, the own crawler's change feed likewise", () => {
    expect(planPass(passInput())).toEqual({ kind: 'new_listings', provider: 'provider_a', scope: { key: 'new_listings', filters: {} }, postedSince: NOW - 7 * MIN });
    expect(planPass(passInput({ provider: 'own_index', lagMs: 2 * MIN }))).toEqual({ kind: 'catalog_changes', provider: 'own_index', scope: { key: 'catalog_changes', filters: {} }, changedSince: NOW - 4 * MIN });
  });

  it('reads the same window in a provider\'s first pass', () => {
    expect(planPass(passInput({ lastReadAt: null })).postedSince).toBe(NOW - 7 * MIN);
  });

  it('reaches back to the last pass that read the window when passes came late or failed, so nothing that moved between is missed', () => {
    const late = planPass(passInput({ provider: 'own_index', lagMs: 2 * MIN, lastReadAt: NOW - 30 * MIN }));
    // the last read covered up to its own start minus the lag; this window starts an interval before that
    expect(late.changedSince).toBe(NOW - 30 * MIN + MIN - 4 * MIN);
    expect(planPass(passInput({ lastReadAt: NOW - 30 * MIN })).postedSince).toBe(NOW - 30 * MIN + MIN - 7 * MIN);
  });
});

describe('planRound', () => {
  it("re-verifies the bucket's companies with the partner, in sorted batches of distinct domains", () => {
    const sweeps = planRound(roundInput());
    expect(sweeps.map((s) => [s.kind, s.provider, s.scope.key])).toEqual([
      ['companies', 'provider_a', 'companies:3/10:0'],
      ['companies', 'provider_a', 'companies:3/10:1'],
    ]);
    expect(sweeps.map((s) => s.scope.filters.company_domain_or)).toEqual([['a.example', 'b.example'], ['c.example']]);
  });

  it("reads the own crawler's whole catalog in its round of bucket 0 only", () => {
    expect(planRound(roundInput({ provider: 'own_index', bucket: 0 })).map((s) => s.kind)).toEqual(['catalog']);
    for (let bucket = 1; bucket < 10; bucket++) expect(planRound(roundInput({ provider: 'own_index', bucket }))).toEqual([]);
  });

  it('plans no company batch for a partner without open listings in the bucket', () => {
    expect(planRound(roundInput({ domains: [] }))).toEqual([]);
  });
});

describe('passes and rounds', () => {
  it('are the same whatever the number of watches: they have no watch input at all, and every sweep is a valid message', () => {
    const sweeps = PROVIDER_SLUGS.flatMap((provider) => [planPass(passInput({ provider })), planPass(passInput({ provider, lastReadAt: null })), ...planRound(roundInput({ provider })), ...planRound(roundInput({ provider, bucket: 0 }))]);
    for (const sweep of sweeps) expect(RefreshFetchRequested.ValueSchema.safeParse(asMessage(sweep)).success).toBe(true);
  });
});

describe('decide', () => {
  const rules = (over: Partial<DecisionRules> = {}): DecisionRules => ({ now: NOW, intervalMs: MIN, staleMs: 10 * MIN, latestRequestAt: null, ...over });
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
    expect(decide(ended, rules({ latestRequestAt: NOW - 20_000 }))).toEqual({ waiting: 'interval', dueAt: NOW - 10_000 + MIN });
    expect(decide(ended, rules({ latestRequestAt: NOW - 5_000 }))).toEqual({ start: 'request' });
    expect(decide(ended, rules({ now: NOW - 10_000 + MIN - 100 }))).toEqual({ start: 'schedule' });
  });
});

describe('nextBucket', () => {
  it('goes round the buckets, starting at 0', () => {
    expect(nextBucket(null, 10)).toBe(0);
    expect(nextBucket(3, 10)).toBe(4);
    expect(nextBucket(9, 10)).toBe(0);
  });
});

describe('refreshCallTimeoutMs', () => {
  it('is an interval, at least 5 s and at most 30 s', () => {
    expect(refreshCallTimeoutMs(2_000)).toBe(5_000);
    expect(refreshCallTimeoutMs(10_000)).toBe(10_000);
    expect(refreshCallTimeoutMs(60_000)).toBe(30_000);
  });
});
