import { examples } from './examples.js';
import type { SearchRequested } from './messages/index.js';
import {
  ALL_TOPICS,
  refreshTopicsOf,
  renderTopicTable,
  SERVICE_NAMES,
  topicByName,
  Topics,
  type MessageOf,
  type TopicId,
} from './topology.js';

const exampleOf: Record<TopicId, () => unknown> = {
  SearchRequested: examples.searchRequested,
  ProviderFetchRequested: examples.providerFetchRequested,
  OwnIndexQueryRequested: examples.ownIndexQueryRequested,
  ProviderRecordsFetched: examples.providerRecordsFetched,
  SearchRecordsDeduplicated: examples.searchRecordsDeduplicated,
  SearchPageGathered: examples.searchPageGathered,
  BillingPageChargeRequested: examples.billingPageChargeRequested,
  SearchPageCharged: examples.searchPageCharged,
  SearchResponded: examples.searchResponded,
  EventEmitted: examples.eventEmitted,
  BillingQueryRequested: examples.billingQueryRequested,
  DedupeQueryRequested: examples.dedupeQueryRequested,
  QueryResponded: examples.queryResponded,
  DeadLetter: examples.deadLetter,
  JobLifecycleChanged: examples.jobLifecycleChanged,
  CompanyHiringChanged: examples.companyHiringChanged,
  RefreshRequested: examples.refreshRequested,
  RefreshPassFetchRequested: examples.refreshPassFetchRequested,
  RefreshBoardFetchRequested: examples.refreshBoardFetchRequested,
  RefreshPassRecordsFetched: examples.refreshPassRecordsFetched,
  RefreshFetchRequested: examples.refreshFetchRequested,
  RefreshRecordsFetched: examples.refreshRecordsFetched,
  EventChargeRequested: examples.eventChargeRequested,
  AccountCreditsAdded: examples.accountCreditsAdded,
  OrchestratorQueryRequested: examples.orchestratorQueryRequested,
  DispatcherQueryRequested: examples.dispatcherQueryRequested,
  AsyncChunkRequested: examples.asyncChunkRequested,
  AsyncChunkFetched: examples.asyncChunkFetched,
  AsyncChunkDeduplicated: examples.asyncChunkDeduplicated,
  AsyncChunkChargeRequested: examples.asyncChunkChargeRequested,
  AsyncChunkCharged: examples.asyncChunkCharged,
};
const entries = Object.entries(Topics) as [TopicId, (typeof Topics)[TopicId]][];

describe('topology', () => {
  it('declares exactly these topics, with unique names', () => {
    const names = ALL_TOPICS.map((topic) => topic.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual([
      'search.requested',
      'provider.fetch.requested',
      'own-index.query.requested',
      'provider.records.fetched',
      'search.records.deduplicated',
      'search.page.gathered',
      'billing.page.charge.requested',
      'search.page.charged',
      'search.responded',
      'event.emitted',
      'billing.query.requested',
      'dedupe.query.requested',
      'orchestrator.query.requested',
      'dispatcher.query.requested',
      'query.responded',
      'job.lifecycle.changed',
      'company.hiring.changed',
      'refresh.requested',
      'refresh.pass.fetch.requested',
      'refresh.board.fetch.requested',
      'refresh.pass.records.fetched',
      'refresh.fetch.requested',
      'refresh.records.fetched',
      'event.charge.requested',
      'account.credits.added',
      'async.chunk.requested',
      'async.chunk.fetched',
      'async.chunk.deduplicated',
      'async.chunk.charge.requested',
      'async.chunk.charged',
      'dead-letter',
    ]);
  });

  it.each(entries)('%s: its example parses and its key is a non-empty string', (id, topic) => {
    const value = topic.value.parse(exampleOf[id]());
    const key = (topic.keyOf as (v: unknown) => string)(value);
    expect(typeof key).toBe('string');
    expect(key.length).toBeGreaterThan(0);
  });

  it.each(entries)('%s: positive integer partitions, known services, one-line texts', (_id, topic) => {
    expect(Number.isInteger(topic.partitions) && topic.partitions > 0).toBe(true);
    expect(topic.producers.length).toBeGreaterThan(0);
    for (const service of [...topic.producers, ...topic.consumers]) expect(SERVICE_NAMES).toContain(service);
    for (const text of [topic.purpose, topic.keyReason, topic.key]) {
      expect(text.trim().length).toBeGreaterThan(0);
      expect(text).not.toContain('\n');
    }
  });

  it('uses 12 partitions for entity-keyed topics, 3 for the dead letters and 1 for the global refresh trigger', () => {
    const expected = (name: string) => (name === 'dead-letter' ? 3 : name === 'refresh.requested' ? 1 : 12);
    for (const topic of ALL_TOPICS) expect([topic.name, topic.partitions]).toEqual([topic.name, expected(topic.name)]);
  });

  it('keys billing by account and the search flow by search id', () => {
    expect(Topics.BillingPageChargeRequested.keyOf(examples.billingPageChargeRequested())).toBe('acc_demo');
    expect(Topics.SearchPageGathered.keyOf(examples.searchPageGathered())).toBe('req_123');
    expect(Topics.SearchPageCharged.keyOf(examples.searchPageCharged())).toBe('req_123');
    expect(Topics.SearchResponded.keyOf(examples.searchResponded())).toBe('req_123');
  });

  it(
    "merges a search's partner wave and any later part of it side " +
      'by side, its own index leg on a topic of its own, and gathers ' +
      'its results on one orchestrator partition',
    () => {
      const wave = examples.providerRecordsFetched();
      expect(Topics.ProviderRecordsFetched.keyOf(wave)).toBe(`${wave.search_id}:provider_a`);
      const batch = wave.batches[0]!;
      const partners = { ...wave, batches: [batch, { ...batch, provider: 'provider_d' as const, records: [] }] };
      expect(Topics.ProviderRecordsFetched.keyOf(partners)).toBe(`${wave.search_id}:provider_a+provider_d`);
      const straggler = {
        ...wave,
        batches: [{ ...batch, provider: 'provider_b' as const, outcome: 'provider_timeout' as const, records: [] }],
      };
      expect(Topics.ProviderRecordsFetched.keyOf(straggler)).not.toBe(Topics.ProviderRecordsFetched.keyOf(partners));
      const ownIndex = examples.ownIndexQueryRequested();
      expect(Topics.OwnIndexQueryRequested.keyOf(ownIndex)).toBe(ownIndex.search_id);
      expect(Topics.OwnIndexQueryRequested.consumers).toEqual(Topics.ProviderRecordsFetched.consumers);
      expect(Topics.SearchRecordsDeduplicated.keyOf(examples.searchRecordsDeduplicated())).toBe(
        examples.searchRecordsDeduplicated().search_id,
      );
    },
  );

  it(
    "keeps a pass's sweeps (what moved) on topics apart from a " +
      "round's (re-verification), a round's parts in order on one " +
      'partition',
    () => {
      expect(refreshTopicsOf('new_listings')).toEqual({
        fetch: Topics.RefreshPassFetchRequested,
        records: Topics.RefreshPassRecordsFetched,
      });
      expect(refreshTopicsOf('catalog_changes')).toEqual({
        fetch: Topics.RefreshPassFetchRequested,
        records: Topics.RefreshPassRecordsFetched,
      });
      // the own crawler's boards on a fetch topic of their own, their parts merged as a pass's
      expect(refreshTopicsOf('board')).toEqual({
        fetch: Topics.RefreshBoardFetchRequested,
        records: Topics.RefreshPassRecordsFetched,
      });
      expect(refreshTopicsOf('companies')).toEqual({
        fetch: Topics.RefreshFetchRequested,
        records: Topics.RefreshRecordsFetched,
      });
      expect(refreshTopicsOf('catalog')).toEqual({
        fetch: Topics.RefreshFetchRequested,
        records: Topics.RefreshRecordsFetched,
      });
      const part = examples.refreshRecordsFetched();
      expect(Topics.RefreshRecordsFetched.keyOf({ ...part, provider: 'provider_b' })).toBe(
        Topics.RefreshRecordsFetched.keyOf(part),
      );
      expect(Topics.RefreshPassRecordsFetched.keyOf(examples.refreshPassRecordsFetched())).toBe('provider_a');
    },
  );

  it('wires each consumer to a producer upstream: every non-gateway producer consumes something', () => {
    const consumers = new Set(ALL_TOPICS.flatMap((topic) => topic.consumers));
    for (const producer of ALL_TOPICS.flatMap((topic) => topic.producers)) {
      if (producer !== 'gateway') expect(consumers).toContain(producer);
    }
  });

  it('finds topics by name', () => {
    expect(topicByName('billing.page.charge.requested')).toBe(Topics.BillingPageChargeRequested);
    expect(topicByName('nope')).toBeUndefined();
  });

  it('types messages from the registry', () => {
    const message: MessageOf<typeof Topics.SearchRequested> = examples.searchRequested();
    const same: SearchRequested.Value = message;
    expect(same.kind).toBe('sync');
  });
});

describe('renderTopicTable', () => {
  const table = renderTopicTable();
  const lines = table.split('\n');

  it('renders a header, a separator and one row per topic', () => {
    expect(lines[0]).toBe('| topic | producer(s) | consumer(s) | key | partitions | what flows |');
    expect(lines[1]).toBe('|---|---|---|---|---|---|');
    expect(lines).toHaveLength(2 + ALL_TOPICS.length);
  });

  it('puts every topic in its row with its services, key and partitions', () => {
    const row = lines.find((line) => line.startsWith('| `billing.page.charge.requested` |'));
    expect(row).toContain('| search-orchestrator | billing |');
    expect(row).toContain('`account_id`');
    expect(row).toContain('| 12 |');
    expect(lines.find((line) => line.startsWith('| `dead-letter` |'))).toContain('| 3 |');
    for (const line of lines.slice(2)) expect(line.split(' | ')).toHaveLength(6);
  });
});
