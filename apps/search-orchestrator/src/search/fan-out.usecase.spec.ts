import { jest } from '@jest/globals';
import { examples, tolerantReaderOf, Topics } from '@jobs/contracts';
import type { KafkaPublisher } from '@jobs/nest-kafka';
import { FanOutUseCase } from './fan-out.usecase.js';
import type { SearchState, SearchStateStore } from './search-state.store.js';

describe('FanOutUseCase passes on what a later version added', () => {
  it('hands filters it does not know to the fetcher and to the own index, as it read them', async () => {
    const sent = examples.searchRequested();
    const later = {
      ...sent,
      request: { ...sent.request, filters: { ...sent.request.filters, salary_currency: 'EUR' } },
    };
    // read as the consumer reads it, then kept in Redis as JSON between waves
    const read = tolerantReaderOf(Topics.SearchRequested.value).parse(later);
    const state: SearchState = JSON.parse(
      JSON.stringify({
        request: read,
        plan: { strategy: 'waterfall', providers: ['own_index', 'provider_a'], waves: [['own_index', 'provider_a']] },
        wave: 0,
        startedAt: 0,
      }),
    );
    const published: { topic: string; value: unknown }[] = [];
    const publisher = {
      publish: jest.fn(
        async (topic: { name: string }, value: unknown) => void published.push({ topic: topic.name, value }),
      ),
    };
    const store = { open: jest.fn(async () => true), advance: jest.fn(async () => undefined) };
    await new FanOutUseCase(store as unknown as SearchStateStore, publisher as unknown as KafkaPublisher).firstWave(
      state,
    );

    const fetch = published.find((p) => p.topic === Topics.ProviderFetchRequested.name)!.value;
    const ownIndex = published.find((p) => p.topic === Topics.OwnIndexQueryRequested.name)!.value;
    const filters = { title_or: ['backend'], salary_currency: 'EUR' };
    expect(tolerantReaderOf(Topics.ProviderFetchRequested.value).parse(fetch).filters).toEqual(filters);
    expect(tolerantReaderOf(Topics.OwnIndexQueryRequested.value).parse(ownIndex).filters).toEqual(filters);
  });
});

describe('FanOutUseCase and consensus', () => {
  async function ownIndexAsk(strategy: 'consensus' | 'max_coverage', dryRun = false) {
    const sent = examples.searchRequested();
    const request = {
      ...sent,
      request: { ...sent.request, dry_run: dryRun, waterfall: { ...sent.request.waterfall, strategy, min_sources: 3 } },
    };
    const published: { topic: string; value: unknown }[] = [];
    const publisher = {
      publish: jest.fn(
        async (topic: { name: string }, value: unknown) => void published.push({ topic: topic.name, value }),
      ),
    };
    const store = { open: jest.fn(async () => true), advance: jest.fn(async () => undefined) };
    await new FanOutUseCase(store as unknown as SearchStateStore, publisher as unknown as KafkaPublisher).firstWave({
      request,
      plan: { strategy, providers: ['own_index', 'provider_a'], waves: [['own_index', 'provider_a']] },
      wave: 0,
      startedAt: 0,
    });
    const value = published.find((p) => p.topic === Topics.OwnIndexQueryRequested.name)!.value;
    return Topics.OwnIndexQueryRequested.value.parse(value);
  }

  it("asks the own index for corroborated jobs only on a consensus page, never on another strategy's", async () => {
    expect((await ownIndexAsk('consensus')).min_sources).toBe(3);
    expect((await ownIndexAsk('max_coverage')).min_sources).toBeUndefined();
    // a dry run counts every match and the corroborated ones apart (count.min_sources)
    const dry = await ownIndexAsk('consensus', true);
    expect(dry.min_sources).toBeUndefined();
    expect(dry.count).toMatchObject({ min_sources: 3 });
  });
});

describe('FanOutUseCase and a redelivered first page', () => {
  async function redelivered(completed: boolean) {
    const published: string[] = [];
    const publisher = { publish: jest.fn(async (topic: { name: string }) => void published.push(topic.name)) };
    const store = { open: jest.fn(async () => false), isCompleted: jest.fn(async () => completed) };
    const opened = await new FanOutUseCase(
      store as unknown as SearchStateStore,
      publisher as unknown as KafkaPublisher,
    ).firstWave(
      {
        request: examples.searchRequested(),
        plan: { strategy: 'max_coverage', providers: ['provider_a'], waves: [['provider_a']] },
        wave: 0,
        startedAt: 0,
      },
      { onlyIfNew: true },
    );
    return { opened, published };
  }

  it('asks the first wave again when the search was opened but not answered (its first handling stopped)', async () => {
    expect(await redelivered(false)).toEqual({ opened: false, published: [Topics.ProviderFetchRequested.name] });
  });

  it('asks nothing of a search already answered', async () => {
    expect(await redelivered(true)).toEqual({ opened: false, published: [] });
  });
});
