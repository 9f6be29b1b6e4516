import type { Job } from '@jobs/contracts';
import { firstPageMayContinue, firstPosition, hasMore, nextPositions, providersWithMore } from './result-set-paging.js';
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
