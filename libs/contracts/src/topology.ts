/**
 * The one declared Kafka topology: every topic with its name, value schema, key, partitions,
 * producers and consumers. Topic names live here and nowhere else (never in env variables).
 *
 * The sync search is a coordinator pattern: the gateway asks, the orchestrator asks each wave of
 * partners in one fetch request (the own index beside it, straight to dedupe), the fetcher calls
 * them side by side and hands the whole wave to dedupe in one message, dedupe merges it in one
 * pass and answers once, the orchestrator gathers and sends the page to the gateway and its job ids
 * to billing side by side, and the gateway answers once billing's outcome is in. Few, larger
 * messages: every message costs a produce, a fetch and a commit.
 */
import type { z } from 'zod';
import * as BillingPageChargeRequested from './messages/billing-page-charge-requested.schema.js';
import * as SearchPageGathered from './messages/search-page-gathered.schema.js';
import * as SearchPageCharged from './messages/search-page-charged.schema.js';
import * as DeadLetter from './messages/dead-letter.schema.js';
import * as EventEmitted from './messages/event-emitted.schema.js';
import * as BillingQueryRequested from './messages/billing-query-requested.schema.js';
import * as DedupeQueryRequested from './messages/dedupe-query-requested.schema.js';
import * as QueryResponded from './messages/query-responded.schema.js';
import * as ProviderFetchRequested from './messages/provider-fetch-requested.schema.js';
import * as ProviderRecordsFetched from './messages/provider-records-fetched.schema.js';
import * as SearchRecordsDeduplicated from './messages/search-records-deduplicated.schema.js';
import * as SearchRequested from './messages/search-requested.schema.js';
import * as SearchResponded from './messages/search-responded.schema.js';
import * as JobLifecycleChanged from './messages/job-lifecycle-changed.schema.js';
import * as CompanyHiringChanged from './messages/company-hiring-changed.schema.js';
import * as RefreshRequested from './messages/refresh-requested.schema.js';
import * as RefreshFetchRequested from './messages/refresh-fetch-requested.schema.js';
import * as RefreshRecordsFetched from './messages/refresh-records-fetched.schema.js';
import * as EventChargeRequested from './messages/event-charge-requested.schema.js';
import * as AccountCreditsAdded from './messages/account-credits-added.schema.js';
import * as OrchestratorQueryRequested from './messages/orchestrator-query-requested.schema.js';
import * as DispatcherQueryRequested from './messages/dispatcher-query-requested.schema.js';
import * as AsyncChunkRequested from './messages/async-chunk-requested.schema.js';
import * as AsyncChunkFetched from './messages/async-chunk-fetched.schema.js';
import * as AsyncChunkDeduplicated from './messages/async-chunk-deduplicated.schema.js';
import * as AsyncChunkChargeRequested from './messages/async-chunk-charge-requested.schema.js';
import * as AsyncChunkCharged from './messages/async-chunk-charged.schema.js';

export const SERVICE_NAMES = [
  'gateway',
  'search-orchestrator',
  'provider-fetcher',
  'dedupe',
  'billing',
  'webhook-dispatcher',
  'provider-sim',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface TopicDefinition<Name extends string = string, Schema extends z.ZodType = z.ZodType> {
  /** the Kafka topic name */
  readonly name: Name;
  /** schema of the JSON message value */
  readonly value: Schema;
  /** what the message key is */
  readonly key: string;
  /** extracts the message key from a value; never empty */
  readonly keyOf: (value: z.output<Schema>) => string;
  readonly partitions: number;
  readonly producers: readonly ServiceName[];
  readonly consumers: readonly ServiceName[];
  /** one line: what flows on the topic */
  readonly purpose: string;
  /** one line: why that key */
  readonly keyReason: string;
}

function defineTopic<const Name extends string, Schema extends z.ZodType>(
  definition: TopicDefinition<Name, Schema>,
): TopicDefinition<Name, Schema> {
  return definition;
}

const SEARCH_PARTITIONS = 12;

export const Topics = {
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
  ProviderRecordsFetched: defineTopic({
    name: 'provider.records.fetched',
    value: ProviderRecordsFetched.ValueSchema,
    key: 'search_id:providers',
    keyOf: ProviderRecordsFetched.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['provider-fetcher', 'search-orchestrator'],
    consumers: ['dedupe'],
    purpose:
      "One wave's normalized records, a batch per partner (or its " +
      'failure: error or timeout), sent once the wave is in (a wave ' +
      'not all in by half its budget: what is in then, each later ' +
      "answer as it comes); or the own index's leg, a store query, " +
      'straight from the orchestrator',
    keyReason:
      "The providers the message carries (`own_index`, or a wave's " +
      "partners joined by `+`): a search's own index leg, its " +
      'partner wave and any later part of that wave merge side by ' +
      'side on their own dedupe partitions (advisory locks on ' +
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
      'returned, next cursor, credits; or insufficient_credits), ' +
      'joined by the gateway with the page',
    keyReason: 'The outcome follows its search; at most one per search id',
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
  EventEmitted: defineTopic({
    name: 'event.emitted',
    value: EventEmitted.ValueSchema,
    key: 'account_id',
    keyOf: EventEmitted.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['search-orchestrator', 'billing'],
    consumers: ['webhook-dispatcher'],
    purpose:
      'Every event for the feed and webhook delivery: free watch ' +
      'events and search.completed (orchestrator), charged ' +
      'job.opened (billing)',
    keyReason: "One account's events are stored and delivered in the order they happened",
  }),
  BillingQueryRequested: defineTopic({
    name: 'billing.query.requested',
    value: BillingQueryRequested.ValueSchema,
    key: 'account_id',
    keyOf: BillingQueryRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['gateway'],
    consumers: ['billing'],
    purpose:
      'A read of the ledger, a single-job charge (GET /jobs/{id}), ' +
      'or an admin account opening or top-up, for billing to answer ' +
      'now',
    keyReason: "Shares the account key of billing.page.charge.requested: one account's charges serialize",
  }),
  DedupeQueryRequested: defineTopic({
    name: 'dedupe.query.requested',
    value: DedupeQueryRequested.ValueSchema,
    key: 'query_id',
    keyOf: DedupeQueryRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['gateway'],
    consumers: ['dedupe'],
    purpose: 'A read of the canonical job store (one job by id, a company profile) for dedupe to answer now',
    keyReason: 'Reads need no order among themselves: spread evenly over partitions',
  }),
  OrchestratorQueryRequested: defineTopic({
    name: 'orchestrator.query.requested',
    value: OrchestratorQueryRequested.ValueSchema,
    key: 'account_id',
    keyOf: OrchestratorQueryRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['gateway'],
    consumers: ['search-orchestrator'],
    purpose:
      'Async search creation and reads, watch creation, listing, ' +
      'deletion and pause/resume, the webhook URLs they use, for ' +
      'the orchestrator to answer now',
    keyReason: "One account's commands and reads stay in order (a read after a create sees it)",
  }),
  DispatcherQueryRequested: defineTopic({
    name: 'dispatcher.query.requested',
    value: DispatcherQueryRequested.ValueSchema,
    key: 'account_id',
    keyOf: DispatcherQueryRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['gateway'],
    consumers: ['webhook-dispatcher'],
    purpose:
      'A read of the event feed (GET /events) or a replay of one ' +
      'event (POST /webhooks/replay) for the dispatcher to answer ' +
      'now',
    keyReason:
      'Shares the account key of event.emitted: a feed read or ' +
      "replay lands on the partition that stores the account's " +
      'events',
  }),
  QueryResponded: defineTopic({
    name: 'query.responded',
    value: QueryResponded.ValueSchema,
    key: 'query_id',
    keyOf: QueryResponded.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['billing', 'dedupe', 'search-orchestrator', 'webhook-dispatcher'],
    consumers: ['gateway'],
    purpose: 'The answer (result or error) to a query, for the gateway request waiting on it',
    keyReason: 'The answer follows its query id',
  }),
  JobLifecycleChanged: defineTopic({
    name: 'job.lifecycle.changed',
    value: JobLifecycleChanged.ValueSchema,
    key: 'job_id',
    keyOf: JobLifecycleChanged.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['dedupe'],
    consumers: ['search-orchestrator'],
    purpose:
      'One change of a canonical job (opened, updated, closed, reposted) with the job after it, for the watch matcher',
    keyReason: "One job's changes stay in the order dedupe made them",
  }),
  CompanyHiringChanged: defineTopic({
    name: 'company.hiring.changed',
    value: CompanyHiringChanged.ValueSchema,
    key: 'company domain',
    keyOf: CompanyHiringChanged.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['dedupe'],
    consumers: ['search-orchestrator'],
    purpose: "A company's is_hiring value changed (true, false or null), for company watches",
    keyReason: "One company's hiring changes stay in order",
  }),
  RefreshRequested: defineTopic({
    name: 'refresh.requested',
    value: RefreshRequested.ValueSchema,
    key: '"refresh"',
    keyOf: RefreshRequested.keyOf,
    partitions: 1,
    producers: ['gateway'],
    consumers: ['dedupe'],
    purpose:
      'An operator asked for a refresh now (POST /admin/refresh): ' +
      "every provider's next pass and next re-verification round " +
      'serve it',
    keyReason: 'Requests are rare and global: one partition, one planner at a time',
  }),
  RefreshPassFetchRequested: defineTopic({
    name: 'refresh.pass.fetch.requested',
    value: RefreshFetchRequested.ValueSchema,
    key: 'provider',
    keyOf: RefreshFetchRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['dedupe'],
    consumers: ['provider-fetcher'],
    purpose:
      "One sweep of a refresh pass (what moved): a partner's new " +
      "listings or the own crawler's change feed, read to the end",
    keyReason:
      "A provider's sweeps take a bounded share of its calls beside " +
      "live searches; a topic apart from the rounds', so a pass " +
      'never waits behind a round at the fetcher',
  }),
  RefreshPassRecordsFetched: defineTopic({
    name: 'refresh.pass.records.fetched',
    value: RefreshRecordsFetched.ValueSchema,
    key: 'provider',
    keyOf: RefreshRecordsFetched.passKeyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['provider-fetcher'],
    consumers: ['dedupe'],
    purpose:
      "One part of a pass's sweep (new listings or the own " +
      "crawler's changes), for merging: new openings, updates, " +
      "re-listings, the crawler's closures",
    keyReason:
      "A sweep's parts merge in order, a pass's providers side by " +
      "side; a topic apart from the rounds', so a pass never waits " +
      "behind a round's merges",
  }),
  RefreshFetchRequested: defineTopic({
    name: 'refresh.fetch.requested',
    value: RefreshFetchRequested.ValueSchema,
    key: 'provider',
    keyOf: RefreshFetchRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['dedupe'],
    consumers: ['provider-fetcher'],
    purpose:
      "One sweep of a re-verification round: the own crawler's whole listing or a batch of companies, read to the end",
    keyReason: "A provider's sweeps take a bounded share of its calls beside live searches",
  }),
  RefreshRecordsFetched: defineTopic({
    name: 'refresh.records.fetched',
    value: RefreshRecordsFetched.ValueSchema,
    key: '"refresh:sweeps"',
    keyOf: RefreshRecordsFetched.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['provider-fetcher'],
    consumers: ['dedupe'],
    purpose:
      "One part of a round's sweep (the last says whether the " +
      'listing was read whole), for merging and lifecycle decisions',
    keyReason:
      "One partition: a sweep's parts merge in order before its " +
      "absences are judged, and a round's merges hold one of " +
      "dedupe's slots, so live searches keep the rest",
  }),
  EventChargeRequested: defineTopic({
    name: 'event.charge.requested',
    value: EventChargeRequested.ValueSchema,
    key: 'account_id',
    keyOf: EventChargeRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['search-orchestrator'],
    consumers: ['billing'],
    purpose:
      'A watch event carrying a full Job: job.opened to charge (1 ' +
      'credit unless paid) and then emit; job.updated to emit only ' +
      'if the account paid for the job',
    keyReason:
      "Shares the account key of billing's other inputs: one " +
      "account's charges serialize, and a job.updated is decided " +
      "after the account's earlier job.opened",
  }),
  AccountCreditsAdded: defineTopic({
    name: 'account.credits.added',
    value: AccountCreditsAdded.ValueSchema,
    key: 'account_id',
    keyOf: AccountCreditsAdded.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['billing'],
    consumers: ['search-orchestrator', 'billing'],
    purpose: 'Credits were added to an account: on_hold searches resume, held job.opened events are released',
    keyReason: "One account's top-ups stay in order",
  }),
  AsyncChunkRequested: defineTopic({
    name: 'async.chunk.requested',
    value: AsyncChunkRequested.ValueSchema,
    key: 'search_id:provider',
    keyOf: AsyncChunkRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['search-orchestrator'],
    consumers: ['provider-fetcher'],
    purpose: "One chunk of an async search's collection: one provider's pages from a resumable position",
    keyReason:
      "One provider's chunks of a search stay in order, while the " +
      "search's providers are read side by side on several fetcher " +
      'partitions',
  }),
  AsyncChunkFetched: defineTopic({
    name: 'async.chunk.fetched',
    value: AsyncChunkFetched.ValueSchema,
    key: 'search_id:provider',
    keyOf: AsyncChunkFetched.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['provider-fetcher'],
    consumers: ['dedupe'],
    purpose:
      "One chunk's normalized records (or its failure, or an " +
      "own-index store page to answer) and the provider's next " +
      'position',
    keyReason:
      "One provider's chunks of a search merge in order on one " +
      "dedupe partition, while the search's providers merge side by " +
      'side',
  }),
  AsyncChunkDeduplicated: defineTopic({
    name: 'async.chunk.deduplicated',
    value: AsyncChunkDeduplicated.ValueSchema,
    key: 'search_id',
    keyOf: AsyncChunkDeduplicated.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['dedupe'],
    consumers: ['search-orchestrator'],
    purpose:
      'The canonical jobs one chunk resolved to, with merge counts ' +
      'and the next position, for the orchestrator to collect',
    keyReason: 'Results of one async search return to the orchestrator partition that collects it',
  }),
  AsyncChunkChargeRequested: defineTopic({
    name: 'async.chunk.charge.requested',
    value: AsyncChunkChargeRequested.ValueSchema,
    key: 'account_id',
    keyOf: AsyncChunkChargeRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['search-orchestrator'],
    consumers: ['billing'],
    purpose:
      "An async search's newly collected jobs to charge as collected, up to the balance and the search's max_credits",
    keyReason: "Shares the account key of billing's other inputs: one account's charges serialize",
  }),
  AsyncChunkCharged: defineTopic({
    name: 'async.chunk.charged',
    value: AsyncChunkCharged.ValueSchema,
    key: 'search_id',
    keyOf: AsyncChunkCharged.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['billing'],
    consumers: ['search-orchestrator'],
    purpose:
      'Which jobs of a charge batch were collected (charged or ' +
      'already paid) and whether credits or max_credits stopped it',
    keyReason: 'The answer follows its search to the orchestrator partition that collects it',
  }),
  DeadLetter: defineTopic({
    name: 'dead-letter',
    value: DeadLetter.ValueSchema,
    key: 'original message key',
    keyOf: DeadLetter.keyOf,
    partitions: 3,
    producers: ['gateway', 'search-orchestrator', 'provider-fetcher', 'dedupe', 'billing', 'webhook-dispatcher'],
    consumers: [],
    purpose: 'Messages that failed their schema or kept failing, with the raw value and the error, for operators',
    keyReason: 'Keeps parked messages of one entity in their original order for inspection and replay',
  }),
} as const;

export type Topics = typeof Topics;

/**
 * The topics of a refresh sweep: a pass's (what moved) apart from a round's (re-verification),
 * each consumed by a group of its own at the fetcher and in dedupe: kafkajs fetches again only
 * once every batch of its last fetch is handled, so sharing a group would hold a pass's sweeps
 * behind a round's slowest one.
 */
export function refreshTopicsOf(kind: RefreshFetchRequested.Value['kind']) {
  return RefreshFetchRequested.isWindowSweep(kind)
    ? { fetch: Topics.RefreshPassFetchRequested, records: Topics.RefreshPassRecordsFetched }
    : { fetch: Topics.RefreshFetchRequested, records: Topics.RefreshRecordsFetched };
}
export type TopicId = keyof Topics;
export type AnyTopic = Topics[TopicId];
export type TopicName = AnyTopic['name'];

/** The inferred value type of a topic: `MessageOf<typeof Topics.SearchRequested>`. */
export type MessageOf<T extends { readonly value: z.ZodType }> = z.output<T['value']>;

/** Every topic, in declaration order. */
export const ALL_TOPICS: readonly AnyTopic[] = Object.values(Topics);

/** The topic definition of a topic name, or undefined for a name that is not declared. */
export function topicByName(name: string): AnyTopic | undefined {
  return ALL_TOPICS.find((topic) => topic.name === name);
}

/** Markdown table of every topic, for docs/architecture.md (topology-docs.ts). */
export function renderTopicTable(): string {
  const list = (services: readonly ServiceName[]) => (services.length ? services.join(', ') : '(operators)');
  const escape = (text: string) => text.replaceAll('|', '\\|');
  const rows = ALL_TOPICS.map((topic) =>
    [
      `\`${topic.name}\``,
      list(topic.producers),
      list(topic.consumers),
      `\`${topic.key}\`: ${escape(topic.keyReason)}`,
      String(topic.partitions),
      escape(topic.purpose),
    ].join(' | '),
  );
  return [
    '| topic | producer(s) | consumer(s) | key | partitions | what flows |',
    '|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}
