import { jest } from '@jest/globals';
import { AsyncChunkFetched, examples, type AsyncChunkRequested, type NormalizedProviderRecord } from '@jobs/contracts';
import type { KafkaPublisher } from '@jobs/nest-kafka';
import type { Logger } from '@jobs/observability';
import type { ProviderAdapter, ProviderQuery } from '@jobs/provider-adapters';
import { ProviderCalls } from '../calls/provider-calls.js';
import { CHUNK_PARALLEL_PAGES, FetchChunkUseCase, nextPosition } from './fetch-chunk.usecase.js';

const logger = { warn: () => undefined } as unknown as Logger;
const record = (provider: NormalizedProviderRecord['provider'], id: string): NormalizedProviderRecord => ({
  ...examples.normalizedRecord(),
  provider,
  provider_job_id: id,
});

function request(patch: Partial<AsyncChunkRequested.Value> = {}): AsyncChunkRequested.Value {
  return {
    v: 1,
    search_id: 'srch_1',
    provider: 'provider_a',
    chunk: 3,
    attempt: 1,
    from: { kind: 'pages', page: { cursor: 4, page_size: 100 } },
    filters: { title_or: ['engineer'] },
    want: 200,
    as_of: 1_795_000_000_000,
    timeout_ms: 5_000,
    ...patch,
  };
}

async function run(adapter: ProviderAdapter, message: AsyncChunkRequested.Value) {
  const published: unknown[] = [];
  const publisher = {
    publish: jest.fn(async (_topic: unknown, value: unknown) => void published.push(value)),
  } as unknown as KafkaPublisher;
  await new FetchChunkUseCase(new ProviderCalls([adapter], logger), publisher).execute(message);
  return AsyncChunkFetched.ValueSchema.parse(published[0]);
}

describe('FetchChunkUseCase', () => {
  it('resumes the provider at the chunk position with the search as_of, and passes the next position on', async () => {
    const queries: ProviderQuery[] = [];
    const adapter: ProviderAdapter = {
      provider: 'provider_a',
      search: async (query) => {
        queries.push(query);
        query.paging!.next = { cursor: 6, page_size: 100 };
        return [record('provider_a', '1'), record('provider_a', '2')];
      },
    };
    const out = await run(adapter, request());
    expect(queries[0]).toMatchObject({
      want: 200,
      asOf: 1_795_000_000_000,
      paging: { start: { cursor: 4, page_size: 100 } },
      parallelPages: CHUNK_PARALLEL_PAGES,
    });
    expect(CHUNK_PARALLEL_PAGES).toBeGreaterThan(1);
    expect(out).toMatchObject({
      outcome: 'ok',
      chunk: 3,
      attempt: 1,
      next: { kind: 'pages', page: { cursor: 6, page_size: 100 } },
    });
    expect(out.records.map((r) => r.provider_job_id)).toEqual(['1', '2']);
  });

  it('a failed chunk carries no records and keeps its position for a retry', async () => {
    const adapter: ProviderAdapter = { provider: 'provider_a', search: async () => Promise.reject(new Error('503')) };
    const out = await run(adapter, request());
    expect(out).toMatchObject({
      outcome: 'provider_error',
      records: [],
      next: { kind: 'pages', page: { cursor: 4, page_size: 100 } },
    });
  });

  it('gives the provider its whole budget from when the chunk is taken, however long it waited in Kafka', async () => {
    const adapter: ProviderAdapter = {
      provider: 'provider_a',
      // answers after 50 ms: within a 5 s budget counted from now, though the chunk was asked a minute ago
      // (5 s leaves a loaded machine's stalls room; the silent provider below gets a short budget)
      search: async ({ signal }) => {
        await new Promise((r) => setTimeout(r, 50));
        signal.throwIfAborted();
        return [record('provider_a', '1')];
      },
    };
    const out = await run(adapter, request({ timeout_ms: 5_000 }));
    expect(out).toMatchObject({ outcome: 'ok' });
    const slow: ProviderAdapter = {
      provider: 'provider_a',
      search: ({ signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    };
    expect(await run(slow, request({ timeout_ms: 1_000 }))).toMatchObject({ outcome: 'provider_timeout', records: [] });
  });

  /** The own index's store phase, asked with `extra`; the adapter's search is never called. */
  const storeChunk = async (extra: Partial<AsyncChunkRequested.Value>) => {
    const search = jest.fn(async () => [] as NormalizedProviderRecord[]);
    const out = await run(
      { provider: 'own_index', search },
      request({
        provider: 'own_index',
        from: { kind: 'store', after: null },
        index_scope: { providers_routable: ['own_index'] },
        ...extra,
      }),
    );
    expect(search).not.toHaveBeenCalled();
    return out;
  };

  it('an own index store page is not fetched here: dedupe gets the store query', async () => {
    const out = await storeChunk({});
    expect(out.index_query).toMatchObject({ want: 200, after: null, scope: { providers_routable: ['own_index'] } });
    expect(out.index_query).not.toHaveProperty('min_sources');
  });

  it("passes a consensus search's min_sources on to the store query", async () => {
    const out = await storeChunk({ index_scope: { providers_routable: ['own_index', 'provider_a'] }, min_sources: 2 });
    expect(out.index_query).toMatchObject({ min_sources: 2 });
  });
});

describe('nextPosition', () => {
  it('continues the pages, then ends a partner and moves the own index to its store', () => {
    expect(nextPosition('provider_b', { cursor: 50, page_size: 50 })).toEqual({
      kind: 'pages',
      page: { cursor: 50, page_size: 50 },
    });
    expect(nextPosition('provider_b', null)).toBeNull();
    expect(nextPosition('own_index', null)).toEqual({ kind: 'store', after: null });
  });
});
