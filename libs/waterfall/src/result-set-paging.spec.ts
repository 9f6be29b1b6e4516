import type { Job, ProviderSlug } from '@jobs/contracts';
import {
  firstPageMayContinue,
  firstPosition,
  grownSetMetadata,
  hasMore,
  nextPositions,
  nextWaveWithMore,
  providersWithMore,
} from './result-set-paging.js';
import type { ProviderBatch } from './search-page.js';

describe('firstPageMayContinue', () => {
  it('keeps a set longer than one page', () => {
    expect(firstPageMayContinue(11, 10, null)).toBe(true);
    expect(firstPageMayContinue(10, 10, null)).toBe(false);
    expect(firstPageMayContinue(0, 10, null)).toBe(false);
  });

  it('keeps a set that fits in one page when the cap may cut that page', () => {
    expect(firstPageMayContinue(7, 10, 3)).toBe(true);
    expect(firstPageMayContinue(7, 10, 0)).toBe(true);
  });

  it('keeps a set when a provider may hold more', () => {
    expect(firstPageMayContinue(10, 10, null, true)).toBe(true);
    expect(firstPageMayContinue(0, 10, null, true)).toBe(true);
  });

  it('does not keep a set the cap cannot cut and no provider can grow', () => {
    expect(firstPageMayContinue(7, 10, 7)).toBe(false);
    expect(firstPageMayContinue(7, 10, 50)).toBe(false);
    expect(firstPageMayContinue(0, 10, 0)).toBe(false);
  });
});

const batch = (
  provider: ProviderBatch['provider'],
  outcome: ProviderBatch['outcome'],
  next?: ProviderBatch['next'],
): ProviderBatch => ({ provider, outcome, recordsIn: 0, duplicatesMerged: 0, jobs: [] as Job[], next });

describe('nextPositions', () => {
  const page2 = { kind: 'pages' as const, page: { cursor: 2, page_size: 10 } };
  const store = { kind: 'store' as const, after: { first_seen_at: '2026-11-20T10:00:00.000Z', id: 'job_1' } };

  it('continues an answered provider where its batch ended, none when it had no more', () => {
    expect(
      nextPositions(
        ['own_index', 'provider_a', 'provider_b'],
        ['own_index', 'provider_a', 'provider_b'],
        [batch('own_index', 'ok', store), batch('provider_a', 'ok', page2), batch('provider_b', 'ok', null)],
        {},
      ),
    ).toEqual({
      own_index: store,
      provider_a: page2,
      provider_b: null,
    });
  });

  it(
    'drops a failed provider from the later pages, and asks a ' +
      'provider not asked yet from where it would have started',
    () => {
      const from = { provider_a: page2, provider_d: page2 };
      expect(
        nextPositions(
          ['own_index', 'provider_a', 'provider_b', 'provider_c', 'provider_d'],
          ['own_index', 'provider_a', 'provider_b'],
          [batch('own_index', 'ok', null), batch('provider_a', 'provider_timeout')],
          from,
        ),
      ).toEqual({
        own_index: null,
        provider_a: null,
        provider_b: null,
        provider_c: firstPosition('provider_c'),
        provider_d: page2,
      });
    },
  );

  it('tells whether any provider has more, and which, in plan order', () => {
    const positions = { own_index: null, provider_b: page2, provider_a: store };
    expect(hasMore(positions)).toBe(true);
    expect(hasMore({ own_index: null })).toBe(false);
    expect(providersWithMore(['own_index', 'provider_a', 'provider_b', 'provider_c'], positions)).toEqual([
      'provider_a',
      'provider_b',
    ]);
  });
});

describe('nextWaveWithMore', () => {
  const plan = {
    strategy: 'cheapest_first' as const,
    providers: ['own_index', 'provider_a', 'provider_b'] as ProviderSlug[],
    waves: [['own_index'], ['provider_a', 'provider_b']] as ProviderSlug[][],
  };
  const more = { kind: 'store' as const, after: null };
  const page = { kind: 'pages' as const, page: null };

  it('reads the own index alone while it has more, the partners only once it has none', () => {
    expect(nextWaveWithMore(plan, { own_index: more, provider_a: page, provider_b: page })).toEqual(['own_index']);
    expect(nextWaveWithMore(plan, { own_index: null, provider_a: page, provider_b: page })).toEqual([
      'provider_a',
      'provider_b',
    ]);
    expect(nextWaveWithMore(plan, { own_index: null, provider_a: null, provider_b: page })).toEqual(['provider_b']);
    expect(nextWaveWithMore(plan, { own_index: null, provider_a: null, provider_b: null })).toEqual([]);
  });

  it('reads every provider with more when the plan has one wave', () => {
    const coverage = { ...plan, strategy: 'max_coverage' as const, waves: [plan.providers] };
    expect(nextWaveWithMore(coverage, { own_index: more, provider_a: null, provider_b: page })).toEqual([
      'own_index',
      'provider_b',
    ]);
  });
});

describe('grownSetMetadata', () => {
  const order: ProviderSlug[] = ['own_index', 'provider_a', 'provider_b'];
  const metadata = (
    tried: ProviderSlug[],
    hit: ProviderSlug[],
    failed: { provider: ProviderSlug; code: 'provider_timeout' | 'provider_error' }[] = [],
  ) => ({
    request_id: 'req_1',
    status: failed.length > 0 ? ('partial' as const) : ('complete' as const),
    duplicates_merged: 3,
    providers: { tried, hit, failed },
    latency_ms: 120,
  });

  it('names every provider asked for the set, those that brought a match, and those whose latest read failed', () => {
    const first = metadata(['own_index'], ['own_index']);
    const round = metadata(
      ['provider_a', 'provider_b'],
      ['provider_b'],
      [{ provider: 'provider_a', code: 'provider_timeout' }],
    );
    const grown = grownSetMetadata(first, round, order);
    expect(grown.providers).toEqual({
      tried: ['own_index', 'provider_a', 'provider_b'],
      hit: ['own_index', 'provider_b'],
      failed: [{ provider: 'provider_a', code: 'provider_timeout' }],
    });
    expect(grown.status).toBe('partial');
    // provider_a answers in a later round: no longer failed
    const again = grownSetMetadata(grown, metadata(['provider_a'], ['provider_a']), order);
    expect(again.providers.failed).toEqual([]);
    expect(again.providers.hit).toEqual(['own_index', 'provider_a', 'provider_b']);
    expect(again.status).toBe('complete');
  });
});
