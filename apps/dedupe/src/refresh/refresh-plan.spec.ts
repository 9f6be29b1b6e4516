import { RefreshFetchRequested } from '@jobs/contracts';
import { nextBucket, planPass, type PassInput } from './refresh-plan.js';

const MIN = 60_000;
const input = (over: Partial<PassInput> = {}): PassInput => ({
  now: 10_000_000_000,
  intervalMs: MIN,
  lagMs: { provider_a: 5 * MIN, provider_b: 15 * MIN },
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

describe('planPass', () => {
  it('reads every partner\'s new listings since its lag and two intervals back, the own catalog, and the bucket\'s companies in batches', () => {
    const sweeps = planPass(input());
    expect(sweeps.map((s) => [s.kind, s.provider, s.scope.key])).toEqual([
      ['new_listings', 'provider_a', 'new_listings'],
      ['new_listings', 'provider_b', 'new_listings'],
      ['catalog', 'own_index', 'catalog'],
      ['companies', 'provider_a', 'companies:3/10:0'],
      ['companies', 'provider_a', 'companies:3/10:1'],
      ['companies', 'provider_b', 'companies:3/10:0'],
    ]);
    expect(sweeps[0]!.postedSince).toBe(10_000_000_000 - 7 * MIN);
    expect(sweeps[1]!.postedSince).toBe(10_000_000_000 - 17 * MIN);
    expect(sweeps.slice(3).map((s) => s.scope.filters.company_domain_or)).toEqual([['a.example', 'b.example'], ['c.example'], ['a.example']]);
  });

  it('is the same whatever the number of watches: it has no watch input at all, and every sweep is a valid message', () => {
    for (const sweep of planPass(input())) {
      const message = { v: 1, refresh_id: 'rfr_1', kind: sweep.kind, scope: sweep.scope, provider: sweep.provider, timeout_ms: 120_000, ...(sweep.postedSince !== undefined ? { posted_since: sweep.postedSince } : {}) };
      expect(RefreshFetchRequested.ValueSchema.safeParse(message).success).toBe(true);
    }
  });

  it('plans no company batch for a partner without open listings in the bucket', () => {
    expect(planPass(input({ domainsByProvider: new Map() })).filter((s) => s.kind === 'companies')).toEqual([]);
  });
});

describe('nextBucket', () => {
  it('goes round the buckets, starting at 0', () => {
    expect(nextBucket(null, 10)).toBe(0);
    expect(nextBucket(3, 10)).toBe(4);
    expect(nextBucket(9, 10)).toBe(0);
  });
});
