/**
 * One valid example of each main contract object, typed by the contract. Used by this library's
 * specs (every example must parse) and handy as a base for other projects' tests:
 * `{ ...examples.job(), status: 'closed', closed_reason: 'filled' }`.
 * Each call returns a fresh copy.
 */
import type {
  AccountCreditsAdded,
  OrchestratorQueryRequested,
  DispatcherQueryRequested,
  CompanyHiringChanged,
  EventChargeRequested,
  JobLifecycleChanged,
  RefreshFetchRequested,
  RefreshRecordsFetched,
  RefreshRequested,
  BillingPageChargeRequested,
  BillingQueryRequested,
  DeadLetter,
  DedupeQueryRequested,
  EventEmitted,
  QueryResponded,
  ProviderFetchRequested,
  ProviderRecordsFetched,
  SearchRecordsDeduplicated,
  SearchRequested,
  SearchPageCharged,
  SearchPageGathered,
  SearchResponded,
} from './messages/index.js';
import type { JobSearchResponse, SearchMetadata } from './public/job-search.schema.js';
import type { Job } from './public/job.schema.js';
import type { NormalizedProviderRecord } from './records/normalized-provider-record.schema.js';

const T0 = '2026-10-01T12:00:00.000Z';

function job(): Job {
  return {
    id: 'job_01JABCDEF',
    title: 'Senior Backend Engineer',
    company: { id: 'cmp_acme', name: 'Acme Ltd', domain: 'acme.example' },
    location: { city: 'London', region: 'England', country_code: 'GB', remote: false },
    employment_type: 'full_time',
    seniority: 'senior',
    job_family: 'engineering',
    salary: { min: 80_000, max: 100_000, currency: 'GBP', period: 'year', origin: 'declared' },
    description: 'Build the platform.',
    apply_url: 'https://acme.example/jobs/1/apply',
    posted_at: '2026-09-28T00:00:00Z',
    first_seen_at: '2026-09-28T06:00:00Z',
    last_seen_at: T0,
    last_verified_at: T0,
    status: 'open',
    closed_reason: null,
    repost_count: 0,
    p_real: 0.93,
    sources: [
      {
        provider: 'own_index',
        provider_job_id: 'own-1',
        url: 'https://acme.example/jobs/1',
        first_seen_at: '2026-09-28T06:00:00Z',
        last_seen_at: T0,
        fields: ['title', 'location', 'description'],
      },
      {
        provider: 'provider_a',
        provider_job_id: 'A-991',
        url: null,
        first_seen_at: '2026-09-29T06:00:00Z',
        last_seen_at: T0,
        fields: ['salary', 'seniority'],
      },
    ],
    license: { display: true, resale: false },
  };
}

function metadata(): SearchMetadata {
  return {
    request_id: 'req_123',
    status: 'complete',
    credits_charged: 1,
    jobs_already_paid: 0,
    duplicates_merged: 1,
    credits_remaining: 99,
    providers: {
      tried: ['own_index', 'provider_a'],
      hit: ['own_index', 'provider_a'],
      failed: [],
      contributions: { own_index: 1, provider_a: 0 },
    },
    field_coverage: { salary: 1, seniority: 1, 'location.remote': 1, description: 1 },
    latency_ms: 420,
  };
}

function searchResponse(): JobSearchResponse {
  return { data: [job()], next_cursor: 'cur_abc', metadata: metadata() };
}

function normalizedRecord(): NormalizedProviderRecord {
  return {
    provider: 'provider_a',
    provider_job_id: 'A-991',
    url: 'https://provider-a.example/jobs/A-991',
    title: 'Senior Backend Engineer',
    company: { name: 'Acme Ltd', domain: 'acme.example' },
    location: { city: 'London', region: null, country_code: 'GB', remote: false },
    employment_type: 'full_time',
    seniority: 'senior',
    job_family: null,
    salary: { min: 80_000, max: 100_000, currency: 'GBP', period: 'year', origin: 'inferred' },
    description: null,
    apply_url: null,
    posted_at: null,
    seen_at: T0,
  };
}

function searchRequested(): SearchRequested.Value {
  return {
    v: 1,
    search_id: 'req_123',
    kind: 'sync',
    account_id: 'acc_demo',
    plan: 'pro',
    mode: 'live',
    providers_enabled: ['own_index', 'provider_a', 'provider_b'],
    request: {
      filters: { title_or: ['backend'] },
      waterfall: { strategy: 'cheapest_first', timeout_ms: 10_000, min_sources: 2 },
      limit: 25,
      dry_run: false,
    },
    requested_at: T0,
    deadline_at: Date.parse(T0) + 10_000,
  };
}

function providerRecordsFetched(): ProviderRecordsFetched.Value {
  return {
    v: 1,
    search_id: 'req_123',
    batches: [
      { provider: 'provider_a', outcome: 'ok', latency_ms: 120, fetched_at: T0, records: [normalizedRecord()] },
    ],
  };
}

function providerFetchRequested(): ProviderFetchRequested.Value {
  return {
    v: 1,
    search_id: 'req_123',
    providers: [{ provider: 'provider_a' }],
    filters: { title_or: ['backend'] },
    want: 25,
    deadline_at: Date.parse(T0) + 10_000,
  };
}

function searchRecordsDeduplicated(): SearchRecordsDeduplicated.Value {
  const found = job();
  return {
    v: 1,
    search_id: 'req_123',
    jobs: [found],
    batches: [
      {
        provider: 'provider_a',
        outcome: 'ok',
        latency_ms: 120,
        records_in: 1,
        duplicates_merged: 1,
        from_store: 0,
        job_ids: [found.id],
      },
    ],
  };
}

function searchPageGathered(): SearchPageGathered.Value {
  const { credits_charged: _charged, jobs_already_paid: _paid, credits_remaining: _remaining, ...draft } = metadata();
  return { v: 1, search_id: 'req_123', request_id: 'req_123', response: { data: [job()], metadata: draft } };
}

function billingPageChargeRequested(): BillingPageChargeRequested.Value {
  return {
    v: 1,
    search_id: 'req_123',
    request_id: 'req_123',
    account_id: 'acc_demo',
    mode: 'live',
    operation: 'POST /v1/jobs/search',
    max_credits: null,
    job_ids: [job().id],
    continuation: { set: 'req_123', fingerprint: 'fp_abc', page_start: 0, set_size: 30, more: false },
  };
}

function searchPageCharged(): SearchPageCharged.Value {
  return {
    v: 1,
    search_id: 'req_123',
    request_id: 'req_123',
    outcome: 'ok',
    charge: { returned_job_ids: [job().id], next_cursor: 'cur_abc', jobs_already_paid: 0 },
    credits_charged: 1,
    credits_remaining: 99,
  };
}

function searchResponded(): SearchResponded.Value {
  return {
    v: 1,
    search_id: 'req_123',
    request_id: 'req_123',
    outcome: 'ok',
    response: searchResponse(),
    credits_charged: 1,
    credits_remaining: 99,
  };
}

function eventEmitted(): EventEmitted.Value {
  return {
    v: 1,
    account_id: 'acc_demo',
    event: {
      id: 'evt_1',
      type: 'search.completed',
      created_at: '2026-11-22T08:00:00Z',
      watch_id: null,
      data: { search: { id: 'srch_1', status: 'completed', jobs_found: 3 } },
    },
    webhook_url: 'https://hooks.example.com/jobs',
    mode: 'live',
  };
}

function billingQueryRequested(): BillingQueryRequested.Value {
  return {
    v: 1,
    query_id: 'req_query1',
    account_id: 'acc_demo',
    mode: 'live',
    query: { kind: 'job.charge', job_id: 'job_1', operation: 'GET /v1/jobs/job_1' },
  };
}

function dedupeQueryRequested(): DedupeQueryRequested.Value {
  return {
    v: 1,
    query_id: 'req_query2',
    account_id: 'acc_demo',
    query: { kind: 'job.get', job_id: 'job_1', providers_routable: ['own_index'] },
  };
}

function queryResponded(): QueryResponded.Value {
  return {
    v: 1,
    query_id: 'req_query1',
    outcome: 'ok',
    result: { kind: 'job.charge', reason: 'charged', credits_charged: 1, credits_remaining: 99 },
  };
}

function deadLetter(): DeadLetter.Value {
  return {
    v: 1,
    topic: 'search.requested',
    partition: 4,
    offset: '1024',
    key: 'req_123',
    value: '{"v":2}',
    error: 'v: Invalid input: expected 1',
    failed_at: T0,
    consumer_group: 'search-orchestrator',
  };
}

function jobLifecycleChanged(): JobLifecycleChanged.Value {
  return { v: 1, change_id: 'chg_1', change: 'updated', changed_fields: ['salary'], job: job(), occurred_at: T0 };
}

function companyHiringChanged(): CompanyHiringChanged.Value {
  return {
    v: 1,
    change_id: 'chg_2',
    company: { id: 'cmp_acme', name: 'Acme Ltd', domain: 'acme.example' },
    is_hiring: { value: true, confidence: 0.9, basis: '3 open jobs seen by 2 providers in the last day' },
    previous: null,
    occurred_at: T0,
  };
}

function refreshRequested(): RefreshRequested.Value {
  return { v: 1, refresh_id: 'rfr_1', requested_at: T0 };
}

function refreshFetchRequested(): RefreshFetchRequested.Value {
  return {
    v: 1,
    refresh_id: 'rfr_1',
    kind: 'companies',
    scope: { key: 'companies:3/10:0', filters: { company_domain_or: ['acme.example'] } },
    provider: 'provider_a',
    timeout_ms: 120_000,
    call_timeout_ms: 30_000,
    due_at: Date.parse(T0) + 58_200,
  };
}

function refreshPassFetchRequested(): RefreshFetchRequested.Value {
  return {
    v: 1,
    refresh_id: 'rfr_1',
    kind: 'new_listings',
    scope: { key: 'new_listings', filters: {} },
    provider: 'provider_a',
    posted_since: Date.parse(T0) - 420_000,
    timeout_ms: 120_000,
    call_timeout_ms: 30_000,
  };
}

function refreshPassRecordsFetched(): RefreshRecordsFetched.Value {
  return {
    ...refreshRecordsFetched(),
    kind: 'new_listings',
    scope: { key: 'new_listings', filters: {} },
    complete: false,
  };
}

function refreshRecordsFetched(): RefreshRecordsFetched.Value {
  return {
    v: 1,
    refresh_id: 'rfr_1',
    kind: 'companies',
    scope: { key: 'companies:3/10:0', filters: { company_domain_or: ['acme.example'] } },
    provider: 'provider_a',
    part: 0,
    final: true,
    outcome: 'ok',
    complete: true,
    started_at: T0,
    latency_ms: 140,
    fetched_at: T0,
    records: [normalizedRecord()],
  };
}

function eventChargeRequested(): EventChargeRequested.Value {
  return {
    v: 1,
    account_id: 'acc_demo',
    event: { id: 'evt_2', type: 'job.opened', created_at: T0, watch_id: 'wat_1', data: { job: job() } },
    webhook_url: 'https://hooks.example.com/jobs',
  };
}

function accountCreditsAdded(): AccountCreditsAdded.Value {
  return { v: 1, account_id: 'acc_demo', amount: 100, credits_remaining: 140, added_at: T0 };
}

function dispatcherQueryRequested(): DispatcherQueryRequested.Value {
  return {
    v: 1,
    query_id: 'req_query3',
    account_id: 'acc_demo',
    mode: 'live',
    query: { kind: 'events.list', limit: 100 },
  };
}

function orchestratorQueryRequested(): OrchestratorQueryRequested.Value {
  return {
    v: 1,
    query_id: 'req_query3',
    account_id: 'acc_demo',
    plan: 'pro',
    mode: 'live',
    providers_enabled: ['own_index', 'provider_a'],
    query: { kind: 'watch.delete', watch_id: 'wat_1' },
  };
}

/** The async search chunk pipeline: one chunk of provider_a, then its charge. */
function asyncChunkRequested() {
  return {
    v: 1,
    search_id: 'srch_demo',
    provider: 'provider_a',
    chunk: 0,
    attempt: 0,
    from: { kind: 'pages', page: null },
    filters: { title_or: ['engineer'] },
    want: 200,
    as_of: 1_795_000_000_000,
    timeout_ms: 10_000,
  };
}
function asyncChunkFetched() {
  return {
    v: 1,
    search_id: 'srch_demo',
    provider: 'provider_a',
    chunk: 0,
    attempt: 0,
    outcome: 'ok',
    latency_ms: 120,
    fetched_at: '2026-11-22T08:00:00.000Z',
    records: [{ ...normalizedRecord(), provider: 'provider_a' }],
    next: { kind: 'pages', page: { cursor: 2, page_size: 100 } },
  };
}
function asyncChunkDeduplicated() {
  return {
    v: 1,
    search_id: 'srch_demo',
    provider: 'provider_a',
    chunk: 0,
    attempt: 0,
    outcome: 'ok',
    latency_ms: 120,
    records_in: 1,
    duplicates_merged: 0,
    jobs: [job()],
    next: null,
  };
}
function asyncChunkChargeRequested() {
  return {
    v: 1,
    search_id: 'srch_demo',
    account_id: 'acc_demo',
    mode: 'live',
    batch: 1,
    operation: 'POST /v1/searches',
    max_credits: null,
    job_ids: ['job_demo'],
  };
}
function asyncChunkCharged() {
  return {
    v: 1,
    search_id: 'srch_demo',
    account_id: 'acc_demo',
    batch: 1,
    collected: [{ job_id: 'job_demo', reason: 'charged' }],
    stopped: null,
    credits_charged: 1,
    credits_remaining: 99,
  };
}

export const examples = {
  job,
  metadata,
  searchResponse,
  normalizedRecord,
  searchRequested,
  providerFetchRequested,
  providerRecordsFetched,
  searchRecordsDeduplicated,
  searchPageGathered,
  billingPageChargeRequested,
  searchPageCharged,
  searchResponded,
  eventEmitted,
  billingQueryRequested,
  dedupeQueryRequested,
  queryResponded,
  deadLetter,
  jobLifecycleChanged,
  companyHiringChanged,
  refreshRequested,
  refreshFetchRequested,
  refreshPassFetchRequested,
  refreshPassRecordsFetched,
  refreshRecordsFetched,
  eventChargeRequested,
  accountCreditsAdded,
  orchestratorQueryRequested,
  dispatcherQueryRequested,
  asyncChunkRequested,
  asyncChunkFetched,
  asyncChunkDeduplicated,
  asyncChunkChargeRequested,
  asyncChunkCharged,
} as const;
