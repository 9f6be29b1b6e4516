import { defineTopic, SEARCH_PARTITIONS } from './topic-definition.js';
import * as BillingPageChargeRequested from '../messages/billing-page-charge-requested.schema.js';
import * as OwnIndexQueryRequested from '../messages/own-index-query-requested.schema.js';
import * as ProviderFetchRequested from '../messages/provider-fetch-requested.schema.js';
import * as ProviderRecordsFetched from '../messages/provider-records-fetched.schema.js';
import * as SearchPageCharged from '../messages/search-page-charged.schema.js';
import * as SearchPageGathered from '../messages/search-page-gathered.schema.js';
import * as SearchRecordsDeduplicated from '../messages/search-records-deduplicated.schema.js';
import * as SearchRequested from '../messages/search-requested.schema.js';
import * as SearchResponded from '../messages/search-responded.schema.js';

/** A sync search: the waves of partner fetches, their merge, the gathered page, its charge and the answer. */
export const SYNC_SEARCH_TOPICS = {
  SearchRequested: defineTopic({
    name: 'search.requested',
    value: SearchRequested.ValueSchema,
    key: 'search_id',
    keyOf: SearchRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['gateway'],
    consumers: ['search-orchestrator'],
    purpose: 'A validated search (request with defaults, plan, enabled providers, deadline) to run',
    keyReason: 'One search is coordinated by one orchestrator partition from start to answer',
  }),
  ProviderFetchRequested: defineTopic({
    name: 'provider.fetch.requested',
    value: ProviderFetchRequested.ValueSchema,
    key: 'search_id',
    keyOf: ProviderFetchRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['search-orchestrator'],
    consumers: ['provider-fetcher'],
    purpose:
      'One wave of a search: its partner providers (each with where ' +
      'its paging resumes), filters, how many records, deadline',
    keyReason: "A search's waves stay in order on one partition; searches spread over partitions",
  }),
  OwnIndexQueryRequested: defineTopic({
    name: 'own-index.query.requested',
    value: OwnIndexQueryRequested.ValueSchema,
    key: 'search_id',
    keyOf: OwnIndexQueryRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['search-orchestrator'],
    consumers: ['dedupe'],
    purpose:
      "The own index's leg of a wave: a query of dedupe's store of " +
      'canonical jobs (filters, plan scope, how many, where the last ' +
      "page ended; a dry run's count), sent beside the partners' fetch request",
    keyReason:
      'Searches spread over dedupe partitions; the leg merges beside its ' +
      "search's partner wave, which comes on another topic",
  }),
  ProviderRecordsFetched: defineTopic({
    name: 'provider.records.fetched',
    value: ProviderRecordsFetched.ValueSchema,
    key: 'search_id:providers',
    keyOf: ProviderRecordsFetched.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['provider-fetcher'],
    consumers: ['dedupe'],
    purpose:
      "One wave's normalized records, a batch per partner (or its " +
      'failure: error or timeout), sent once the wave is in (a wave ' +
      'not all in by half its budget: what is in then, each later ' +
      'answer as it comes)',
    keyReason:
      "The wave's partners joined by `+`: the parts of a wave merge " +
      'side by side on their own dedupe partitions (advisory locks on ' +
      'blocking keys keep concurrent merges of one opening to one ' +
      'job); the orchestrator gathers them whatever their order',
  }),
  SearchRecordsDeduplicated: defineTopic({
    name: 'search.records.deduplicated',
    value: SearchRecordsDeduplicated.ValueSchema,
    key: 'search_id',
    keyOf: SearchRecordsDeduplicated.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['dedupe'],
    consumers: ['search-orchestrator'],
    purpose:
      'The canonical jobs one wave (or the own index leg) touched, ' +
      'each once, and per provider its jobs in rank order with ' +
      'merge counts, for the orchestrator to gather',
    keyReason: 'Results of one search return to the orchestrator partition that coordinates it',
  }),
  SearchPageGathered: defineTopic({
    name: 'search.page.gathered',
    value: SearchPageGathered.ValueSchema,
    key: 'search_id',
    keyOf: SearchPageGathered.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['search-orchestrator'],
    consumers: ['gateway'],
    purpose:
      "A sync search's gathered page (jobs, metadata without the " +
      'credit fields), sent beside its charge request: the gateway ' +
      "answers once billing's outcome for it is in too",
    keyReason: 'The page follows its search, as its answer does',
  }),
  BillingPageChargeRequested: defineTopic({
    name: 'billing.page.charge.requested',
    value: BillingPageChargeRequested.ValueSchema,
    key: 'account_id',
    keyOf: BillingPageChargeRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['search-orchestrator'],
    consumers: ['billing'],
    purpose:
      "A gathered page's job ids to charge (new unique jobs, " +
      'max_credits cap) and where the page sits in its result set, ' +
      'for its next cursor',
    keyReason: "One account's charges serialize, so credits and already-paid checks never race",
  }),
  SearchPageCharged: defineTopic({
    name: 'search.page.charged',
    value: SearchPageCharged.ValueSchema,
    key: 'search_id',
    keyOf: SearchPageCharged.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['billing'],
    consumers: ['gateway'],
    purpose:
      "Billing's outcome for a sync search's page (the jobs " +
      'returned, next cursor, credits; or insufficient_credits; or ' +
      'expired: reached billing after answer_by, nothing charged), ' +
      'joined by the gateway with the page',
    keyReason: 'The outcome follows its search; at most one charge per search id',
  }),
  SearchResponded: defineTopic({
    name: 'search.responded',
    value: SearchResponded.ValueSchema,
    key: 'search_id',
    keyOf: SearchResponded.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['search-orchestrator'],
    consumers: ['gateway'],
    purpose: 'The final answer of a search that billing never sees (dry-run estimate or error) for the waiting request',
    keyReason: 'The answer follows its search; at most one answer per search id',
  }),
} as const;
