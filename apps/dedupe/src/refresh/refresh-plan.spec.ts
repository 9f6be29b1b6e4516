import { RefreshFetchRequested } from '@jobs/contracts';
import { nextBucket, planPass, type PassInput } from './refresh-plan.js';

const MIN = 60_000;
const input = (over: Partial<PassInput> = {}): PassInput => ({
  now: 10_000_000_000,
  intervalMs: MIN,
  lagMs: { provider_a: 5 * MIN, provider_b: 15 * MIN },
  partners: ['provider_a', 'provider_b'],
  lastPassAt: 10_000_000_000 - MIN,
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
  it('reads every partner\'s new listings since its lag and two intervals back, the own crawler\'s changes, and the bucket\'s companies in batches', () => {
    const sweeps = planPass(input({ lagMs: { provider_a: 5 * MIN, provider_b: 15 * MIN, own_index: 2 * MIN } }));
    expect(sweeps.map((s) => [s.kind, s.provider, s.scope.key])).toEqual([
      ['new_listings', 'provider_a', 'new_listings'],
      ['new_listings', 'provider_b', 'new_listings'],
      ['catalog_changes', 'own_index', 'catalog_changes'],
      ['companies', 'provider_a', 'companies:3/10:0'],
      ['companies', 'provider_a', 'companies:3/10:1'],
      ['companies', 'provider_b', 'companies:3/10:0'],
    ]);
    expect(sweeps[0]!.postedSince).toBe(10_000_000_000 - 7 * MIN);
    expect(sweeps[1]!.postedSince).toBe(10_000_000_000 - 17 * MIN);
    expect(sweeps[2]!.changedSince).toBe(10_000_000_000 - 4 * MIN);
    expect(sweeps.slice(3).map((s) => s.scope.filters.company_domain_or)).toEqual([['a.example', 'b.example'], ['c.example'], ['a.example']]);
  });

  it('reads the own crawler\'s whole catalog in the first pass and in every pass of bucket 0, its changes in the others', () => {
    const catalog = (over: Partial<PassInput>) => planPass(input(over)).filter((s) => s.provider === 'own_index').map((s) => s.kind);
    expect(catalog({ lastPassAt: null, bucket: 0 })).toEqual(['catalog']);
    expect(catalog({ bucket: 0 })).toEqual(['catalog']);
    for (let bucket = 1; bucket < 10; bucket++) expect(catalog({ bucket })).toEqual(['catalog_changes']);
  });

  it('reaches back to the pass before when this one comes late, so a change between them is not missed', () => {
    const late = planPass(input({ lastPassAt: 10_000_000_000 - 30 * MIN, lagMs: { own_index: 2 * MIN } })).find((s) => s.kind === 'catalog_changes')!;
    // the last pass read up to its own start minus the lag; this window starts an interval before that
    expect(late.changedSince).toBe(10_000_000_000 - 30 * MIN + MIN - 4 * MIN);
  });

  it('is the same whatever the number of watches: it has no watch input at all, and every sweep is a valid message', () => {
    for (const bucket of [0, 3]) {
      for (const sweep of planPass(input({ bucket }))) {
        const message = {
          v: 1,
          refresh_id: 'rfr_1',
          kind: sweep.kind,
          scope: sweep.scope,
          provider: sweep.provider,
          timeout_ms: 120_000,
          ...(sweep.postedSince !== undefined ? { posted_since: sweep.postedSince } : {}),
          ...(sweep.changedSince !== undefined ? { changed_since: sweep.changedSince } : {}),
        };
        expect(RefreshFetchRequested.ValueSchema.safeParse(message).success).toBe(true);
      }
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
