import { jest } from '@jest/globals';
import {
  examples,
  RefreshRecordsFetched,
  type NormalizedProviderRecord,
  type RefreshFetchRequested,
} from '@jobs/contracts';
import type { KafkaPublisher } from '@jobs/nest-kafka';
import type { Logger } from '@jobs/observability';
import type { ProviderAdapter, ProviderQuery } from '@jobs/provider-adapters';
import { ProviderCalls } from '../calls/provider-calls.js';
import {
  FetchRefreshUseCase,
  readWhole,
  SWEEP_PART_RECORDS,
  WINDOW_SWEEP_PARALLEL_PAGES,
} from './fetch-refresh.usecase.js';
import type { ReadBoardUseCase } from './read-board.usecase.js';
import { ROUND_SWEEPS, ROUND_SWEEPS_PER_PROVIDER } from './sweep-pacer.js';

/** Board sweeps are read-board.usecase.spec's; these sweeps are the providers'. */
const noBoards = { execute: () => Promise.resolve() } as unknown as ReadBoardUseCase;

const logger = { warn: () => undefined } as unknown as Logger;

function request(
  provider: RefreshFetchRequested.Value['provider'],
  overrides: Partial<RefreshFetchRequested.Value> = {},
): RefreshFetchRequested.Value {
  return {
    v: 1,
    refresh_id: 'rfr_1',
    kind: 'companies',
    scope: { key: 'companies:0/10:0', filters: { company_domain_or: ['acme.example'] } },
    provider,
    timeout_ms: 5_000,
    ...overrides,
  } as RefreshFetchRequested.Value;
}

async function run(adapter: ProviderAdapter, message: RefreshFetchRequested.Value) {
  const published: unknown[] = [];
  const publisher = {
    publish: jest.fn(async (_topic: unknown, value: unknown) => void published.push(value)),
  } as unknown as KafkaPublisher;
  await new FetchRefreshUseCase(new ProviderCalls([adapter], logger), publisher, noBoards, logger).execute(message);
  return published.map((p) => RefreshRecordsFetched.ValueSchema.parse(p));
}

const record = (provider: NormalizedProviderRecord['provider'], id: string): NormalizedProviderRecord => ({
  ...examples.normalizedRecord(),
  provider,
  provider_job_id: id,
});

/** A provider listing `count` postings in pages, reporting `totals(page)` as its total. */
function paged(
  provider: ProviderAdapter['provider'],
  count: number,
  totals: (page: number) => number = () => count,
): ProviderAdapter & { queries: ProviderQuery[] } {
  const queries: ProviderQuery[] = [];
  return {
    provider,
    queries,
    search: async (q) => {
      queries.push(q);
      const start = Number(q.paging?.start?.cursor ?? 0);
      const end = Math.min(count, start + q.want);
      q.paging!.totals = [totals(start / q.want)];
      q.paging!.next = end < count ? { cursor: end, page_size: q.want } : null;
      return Array.from({ length: end - start }, (_, i) => record(provider, String(start + i)));
    },
  };
}

describe('readWhole', () => {
  it('holds while the total stays the same on every page', () => {
    expect(readWhole([], 0)).toBe(true);
    expect(readWhole([5, 5, 5], 5)).toBe(true);
    expect(readWhole([5, 4], 4)).toBe(false);
    // the listing ended before the postings its provider counts
    expect(readWhole([5, 5], 3)).toBe(false);
  });
});

describe('FetchRefreshUseCase', () => {
  it('hands a listing to dedupe part by part; the last part is final and complete', async () => {
    const adapter = paged('provider_a', SWEEP_PART_RECORDS * 2 + 1);
    const parts = await run(adapter, request('provider_a'));
    expect(parts.map((p) => [p.part, p.final, p.complete, p.records.length])).toEqual([
      [0, false, false, SWEEP_PART_RECORDS],
      [1, false, false, SWEEP_PART_RECORDS],
      [2, true, true, 1],
    ]);
    expect(new Set(parts.map((p) => p.started_at)).size).toBe(1);
    expect(parts.flatMap((p) => p.records.map((r) => r.provider_job_id))).toHaveLength(SWEEP_PART_RECORDS * 2 + 1);
  });

  it("cuts a call's records into parts the broker takes, numbered on; only the last is final", async () => {
    const base = paged('provider_a', SWEEP_PART_RECORDS + 1);
    const long: ProviderAdapter = {
      provider: 'provider_a',
      search: async (q) => (await base.search(q)).map((r) => ({ ...r, description: 'x'.repeat(8_000) })),
    };
    const parts = await run(long, request('provider_a'));
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.map((p) => p.part)).toEqual(parts.map((_, i) => i));
    expect(parts.map((p) => [p.final, p.complete])).toEqual(
      parts.map((_, i) => [i === parts.length - 1, i === parts.length - 1]),
    );
    for (const part of parts) expect(Buffer.byteLength(JSON.stringify(part))).toBeLessThan(1024 * 1024);
    expect(parts.flatMap((p) => p.records)).toHaveLength(SWEEP_PART_RECORDS + 1);
  });

  it('a listing whose total moved while it was read is not complete', async () => {
    const parts = await run(
      paged('provider_a', SWEEP_PART_RECORDS + 5, (page) =>
        page === 0 ? SWEEP_PART_RECORDS + 6 : SWEEP_PART_RECORDS + 5,
      ),
      request('provider_a'),
    );
    expect(parts.at(-1)).toMatchObject({ final: true, complete: false });
  });

  it('a listing that ends before the postings its provider counts is not complete (an empty page)', async () => {
    const count = SWEEP_PART_RECORDS + 5;
    const shortOfTotal: ProviderAdapter = {
      provider: 'provider_c',
      search: async (q) => {
        // the first page, then an empty page that ends the read while the provider counts more
        const start = Number(q.paging?.start?.cursor ?? 0);
        q.paging!.totals = [count];
        q.paging!.next = start === 0 ? { cursor: SWEEP_PART_RECORDS, page_size: q.want } : null;
        return start === 0 ? Array.from({ length: SWEEP_PART_RECORDS }, (_, i) => record('provider_c', `${i}`)) : [];
      },
    };
    const parts = await run(shortOfTotal, request('provider_c'));
    expect(parts.at(-1)).toMatchObject({ final: true, complete: false });
    expect(parts.flatMap((p) => p.records)).toHaveLength(SWEEP_PART_RECORDS);
  });

  it('a listing with an item that did not map is not complete: that listing is still there', async () => {
    const base = paged('provider_a', SWEEP_PART_RECORDS + 5);
    const oneOff: ProviderAdapter = {
      provider: 'provider_a',
      search: async (q) => {
        const records = await base.search(q);
        // the adapter skipped one item of this call (its currency read "US$")
        if (Number(q.paging?.start?.cursor ?? 0) === 0) q.paging!.skipped = 1;
        return records;
      },
    };
    const parts = await run(oneOff, request('provider_a'));
    expect(parts.at(-1)).toMatchObject({ final: true, complete: false });
  });

  it('a failure ends the sweep: a final part without records, never complete', async () => {
    let calls = 0;
    const adapter: ProviderAdapter = {
      provider: 'provider_b',
      search: async (q) => {
        if (++calls > 1) throw new Error('503');
        q.paging!.next = { cursor: 1, page_size: 1 };
        return [record('provider_b', '1')];
      },
    };
    const parts = await run(adapter, request('provider_b'));
    expect(parts.map((p) => [p.part, p.final, p.outcome, p.complete, p.records.length])).toEqual([
      [0, false, 'ok', false, 1],
      [1, true, 'provider_error', false, 0],
    ]);
  });

  it(
    'cuts a call off at the call deadline, well before the ' +
      "sweep's budget: a silent provider ends its sweep, incomplete",
    async () => {
      const silent: ProviderAdapter = {
        provider: 'provider_b',
        search: (q) =>
          new Promise((_, reject) => q.signal.addEventListener('abort', () => reject(new Error('aborted')))),
      };
      const started = Date.now();
      const parts = await run(silent, request('provider_b', { timeout_ms: 60_000, call_timeout_ms: 1_000 }));
      expect(parts.map((p) => [p.final, p.outcome, p.complete])).toEqual([[true, 'provider_timeout', false]]);
      expect(Date.now() - started).toBeLessThan(10_000);
    },
  );

  it('reads a listings sweep by id in one call, complete; a provider that cannot read by id fails it', async () => {
    const listings = (provider: ProviderAdapter['provider']) =>
      request(provider, {
        kind: 'listings',
        scope: { key: 'listings:0/10:0', filters: {}, listing_ids: ['e-1', 'e-2', 'e-3'] },
      });
    const queries: ProviderQuery[] = [];
    const byId: ProviderAdapter = {
      provider: 'provider_e',
      readsListings: true,
      search: async (q) => {
        queries.push(q);
        return (q.listingIds ?? []).filter((id) => id !== 'e-2').map((id) => record('provider_e', id));
      },
    };
    const parts = await run(byId, listings('provider_e'));
    expect(parts.map((p) => [p.final, p.outcome, p.complete, p.records.map((r) => r.provider_job_id)])).toEqual([
      [true, 'ok', true, ['e-1', 'e-3']],
    ]);
    expect(queries.map((q) => q.listingIds)).toEqual([['e-1', 'e-2', 'e-3']]);

    const byFilters = paged('provider_a', 3);
    const refused = await run(byFilters, listings('provider_a'));
    expect(refused.map((p) => [p.final, p.outcome, p.complete])).toEqual([[true, 'provider_error', false]]);
    expect(byFilters.queries).toHaveLength(0);
  });

  it('a new-listings window is never complete and asks the provider for postings since its start', async () => {
    const adapter = paged('provider_c', 3);
    const parts = await run(
      adapter,
      request('provider_c', { kind: 'new_listings', scope: { key: 'new_listings', filters: {} }, listed_since: 1_000 }),
    );
    expect(parts.at(-1)).toMatchObject({ final: true, complete: false, kind: 'new_listings' });
    expect(adapter.queries[0]!.listedSince).toBe(1_000);
  });

  it("asks a window sweep's pages side by side, a re-verification sweep's one at a time", async () => {
    const window = paged('provider_d', 3);
    await run(
      window,
      request('provider_d', { kind: 'new_listings', scope: { key: 'new_listings', filters: {} }, listed_since: 1_000 }),
    );
    expect(window.queries.map((q) => q.parallelPages)).toEqual([WINDOW_SWEEP_PARALLEL_PAGES]);
    const round = paged('provider_d', 3);
    await run(round, request('provider_d'));
    expect(round.queries.map((q) => q.parallelPages)).toEqual([1]);
  });

  it("runs a provider's round sweeps one at a time, beside the other providers'", async () => {
    const active = new Map<string, number>();
    let most = 0;
    const slow = (provider: ProviderAdapter['provider']): ProviderAdapter => ({
      provider,
      search: async (q) => {
        active.set(provider, (active.get(provider) ?? 0) + 1);
        most = Math.max(most, active.get(provider)!);
        await new Promise((r) => setTimeout(r, 20));
        active.set(provider, active.get(provider)! - 1);
        q.paging!.next = null;
        return [];
      },
    });
    const publisher = { publish: jest.fn(async () => undefined) } as unknown as KafkaPublisher;
    const useCase = new FetchRefreshUseCase(
      new ProviderCalls([slow('provider_a'), slow('provider_b')], logger),
      publisher,
      noBoards,
      logger,
    );
    const started = Date.now();
    await Promise.all(
      [1, 2, 3, 4].map(() => useCase.execute(request('provider_a'))).concat(useCase.execute(request('provider_b'))),
    );
    expect(most).toBe(ROUND_SWEEPS_PER_PROVIDER);
    expect(Date.now() - started).toBeGreaterThanOrEqual(75);
  });

  it('asks the own crawler for closed openings too, partners with the scope filters as they are', async () => {
    const own = paged('own_index', 0);
    const partner = paged('provider_a', 0);
    await run(own, request('own_index', { kind: 'catalog', scope: { key: 'catalog', filters: {} } }));
    await run(partner, request('provider_a'));
    expect(own.queries[0]!.filters).toEqual({ include_closed: true });
    expect(partner.queries[0]!.filters).toEqual({ company_domain_or: ['acme.example'] });
  });

  describe('pacing', () => {
    /** A provider whose calls wait until released; counts how many run now. */
    function gated(provider: ProviderAdapter['provider']) {
      let now = 0;
      const waiting: Array<() => void> = [];
      const adapter: ProviderAdapter = {
        provider,
        search: async (q) => {
          now += 1;
          await new Promise<void>((resolve) => waiting.push(resolve));
          now -= 1;
          q.paging!.next = null;
          return [];
        },
      };
      return { adapter, running: () => now, releaseAll: () => waiting.splice(0).forEach((r) => r()) };
    }
    const settle = () => new Promise((r) => setTimeout(r, 5));

    it(
      `runs ${ROUND_SWEEPS} round sweeps at a time, ` +
        `${ROUND_SWEEPS_PER_PROVIDER} per provider whatever the ` +
        `others do, every one in the end, while a pass's sweeps start ` +
        `at once`,
      async () => {
        const providers = (['provider_a', 'provider_b', 'provider_d'] as const).map(gated);
        const publisher = { publish: jest.fn(async () => undefined) } as unknown as KafkaPublisher;
        const useCase = new FetchRefreshUseCase(
          new ProviderCalls(
            providers.map((p) => p.adapter),
            logger,
          ),
          publisher,
          noBoards,
          logger,
        );
        const round = providers.flatMap((p, i) =>
          Array.from({ length: 3 }, (_, j) =>
            useCase.execute(
              request(p.adapter.provider, {
                scope: { key: `companies:0/10:${i * 3 + j}`, filters: { company_domain_or: [`d${i}${j}.example`] } },
              }),
            ),
          ),
        );
        await settle();
        const running = () => providers.reduce((n, p) => n + p.running(), 0);
        // a provider that does not answer holds only its own place
        expect(providers.map((p) => p.running())).toEqual(providers.map(() => ROUND_SWEEPS_PER_PROVIDER));
        const pass = providers.map((p) =>
          useCase.execute(
            request(p.adapter.provider, {
              kind: 'new_listings',
              scope: { key: 'new_listings', filters: {} },
              listed_since: 1_000,
            }),
          ),
        );
        await settle();
        expect(running()).toBe((ROUND_SWEEPS_PER_PROVIDER + 1) * providers.length);
        for (let i = 0; i < 20 && running() > 0; i++) {
          providers.forEach((p) => p.releaseAll());
          await settle();
          for (const p of providers) expect(p.running()).toBeLessThanOrEqual(ROUND_SWEEPS_PER_PROVIDER);
          expect(running()).toBeLessThanOrEqual(ROUND_SWEEPS);
        }
        await Promise.all([...round, ...pass]);
        expect(publisher.publish).toHaveBeenCalledTimes(round.length + pass.length);
      },
    );
  });
});
