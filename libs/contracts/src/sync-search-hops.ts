/**
 * A sync search hop by hop: which service does what, in which file and function, on which topic
 * it comes in and goes out, and what state it touches. docs/search.md shows it as a table
 * (`renderSyncSearchHops`, written by `npm run docs:architecture`); `sync-search-hops.spec.ts`
 * keeps it in step with the topology registry (every topic a hop names is declared, with that
 * service as its consumer or producer, and every sync search topic has its hops) and with the
 * code (every file exists and holds its function).
 */
import type { ServiceName } from './topics/topic-definition.js';
import { Topics, type TopicId } from './topology.js';

export interface SearchHop {
  readonly service: ServiceName;
  /** `path from the repository root:Class.method` */
  readonly at: string;
  /** The topic it takes, or what starts it when it takes none (an HTTP request, a timer). */
  readonly in: TopicId | { readonly trigger: string };
  readonly out: readonly TopicId[];
  /** The state it reads or writes, beyond the messages. */
  readonly state: string;
}

const ORCHESTRATOR = 'apps/search-orchestrator/src/search';

/** In the order a first page goes; then a later page, a dry run and a deadline. */
export const SYNC_SEARCH_HOPS: readonly SearchHop[] = [
  {
    service: 'gateway',
    at: 'apps/gateway/src/search/run-sync-search.usecase.ts:RunSyncSearchUseCase.execute',
    in: { trigger: 'POST /v1/jobs/search' },
    out: ['SearchRequested'],
    state: 'reads the balance (PostgreSQL `accounts`); waits for the answer in memory (Redis for an Idempotency-Key)',
  },
  {
    service: 'search-orchestrator',
    at: `${ORCHESTRATOR}/start-search.usecase.ts:StartSearchUseCase.execute`,
    in: 'SearchRequested',
    out: ['OwnIndexQueryRequested', 'ProviderFetchRequested', 'SearchResponded'],
    state: 'plans the waves; opens the search state (Redis) through `FanOutUseCase.firstWave`',
  },
  {
    service: 'dedupe',
    at: 'apps/dedupe/src/own-index/answer-own-index-query.usecase.ts:AnswerOwnIndexQueryUseCase.execute',
    in: 'OwnIndexQueryRequested',
    out: ['SearchRecordsDeduplicated'],
    state: "reads `canonical_jobs` (PostgreSQL); a dry run's count also reads billing's `paid_jobs`",
  },
  {
    service: 'provider-fetcher',
    at: 'apps/provider-fetcher/src/fetch/fetch-wave.usecase.ts:FetchWaveUseCase.execute',
    in: 'ProviderFetchRequested',
    out: ['ProviderRecordsFetched'],
    state: "calls the wave's partners over HTTP side by side (each adapter's breaker and limits, in memory)",
  },
  {
    service: 'dedupe',
    at: 'apps/dedupe/src/canonical-jobs/deduplicate-wave.usecase.ts:DeduplicateWaveUseCase.execute',
    in: 'ProviderRecordsFetched',
    out: ['SearchRecordsDeduplicated'],
    state: 'merges into `canonical_jobs`, `job_sources` and their keys; lifecycle changes into its outbox (PostgreSQL)',
  },
  {
    service: 'search-orchestrator',
    at: `${ORCHESTRATOR}/collect-batch.usecase.ts:CollectBatchUseCase.execute`,
    in: 'SearchRecordsDeduplicated',
    out: ['OwnIndexQueryRequested', 'ProviderFetchRequested'],
    state: 'records the batch in the search state (Redis); the wave in and short of `limit`: asks the next wave',
  },
  {
    service: 'search-orchestrator',
    at: `${ORCHESTRATOR}/answer-first-page.usecase.ts:AnswerFirstPageUseCase.execute`,
    in: 'SearchRecordsDeduplicated',
    out: ['SearchPageGathered', 'BillingPageChargeRequested'],
    state: 'keeps the result set (Redis) when another page can follow',
  },
  {
    service: 'billing',
    at: 'apps/billing/src/charges/charge-search-page.usecase.ts:ChargeSearchPageUseCase.execute',
    in: 'BillingPageChargeRequested',
    out: ['SearchPageCharged'],
    state:
      'charges in one transaction: `accounts`, `paid_jobs`, `ledger_entries`, `processed_messages`, ' +
      'the answer in its outbox (PostgreSQL); mints `next_cursor`; past `answer_by` charges nothing ' +
      'and answers `expired` straight to Kafka',
  },
  {
    service: 'gateway',
    at: 'apps/gateway/src/search/search-replies.consumer.ts:SearchRepliesConsumer.onPageGathered',
    in: 'SearchPageGathered',
    out: [],
    state: "holds the page until billing's outcome is in (memory)",
  },
  {
    service: 'gateway',
    at: 'apps/gateway/src/search/search-replies.consumer.ts:SearchRepliesConsumer.onPageCharged',
    in: 'SearchPageCharged',
    out: [],
    state:
      'joins page and outcome (`joinSearchAnswer`: the jobs returned, their `field_coverage` ' +
      'and `contributions`) and answers',
  },
  {
    service: 'search-orchestrator',
    at: `${ORCHESTRATOR}/next-page.usecase.ts:NextPageUseCase.execute`,
    in: 'SearchRequested',
    out: ['SearchPageGathered', 'BillingPageChargeRequested', 'OwnIndexQueryRequested', 'ProviderFetchRequested'],
    state: 'a later page: reads the cursor and the result set (Redis); past its end, a round of reads',
  },
  {
    service: 'search-orchestrator',
    at: `${ORCHESTRATOR}/extend-result-set.usecase.ts:ExtendResultSetUseCase.execute`,
    in: 'SearchRecordsDeduplicated',
    out: ['SearchPageGathered', 'BillingPageChargeRequested', 'OwnIndexQueryRequested', 'ProviderFetchRequested'],
    state: 'grows the result set (Redis) by the round; reads again while the page is short',
  },
  {
    service: 'search-orchestrator',
    at: `${ORCHESTRATOR}/answer-estimate.usecase.ts:AnswerEstimateUseCase.execute`,
    in: 'SearchRecordsDeduplicated',
    out: ['SearchResponded'],
    state: "a dry run: the estimate from the legs' counts, nothing kept",
  },
  {
    service: 'search-orchestrator',
    at: `${ORCHESTRATOR}/deadline-sweeper.ts:DeadlineSweeper.sweep`,
    in: { trigger: 'a deadline passed' },
    out: ['SearchPageGathered', 'BillingPageChargeRequested', 'SearchResponded'],
    state: 'claims the completion of an overdue search (Redis) and answers it from what arrived',
  },
  {
    service: 'gateway',
    at: 'apps/gateway/src/search/search-replies.consumer.ts:SearchRepliesConsumer.onSearchResponded',
    in: 'SearchResponded',
    out: [],
    state: 'answers an estimate or a failure (memory)',
  },
];

/** Markdown table of the hops, for docs/search.md. */
export function renderSyncSearchHops(): string {
  const code = (text: string) => `\`${text}\``;
  const escape = (text: string) => text.replaceAll('|', '\\|');
  const rows = SYNC_SEARCH_HOPS.map((hop) =>
    [
      hop.service,
      code(hop.at),
      typeof hop.in === 'string' ? code(Topics[hop.in].name) : escape(hop.in.trigger),
      hop.out.map((id) => code(Topics[id].name)).join(', ') || '-',
      escape(hop.state),
    ].join(' | '),
  );
  return [
    '| service | file:function | topic in | topic out | state touched |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}
