/** A sync search, from its request through its waves and merge to its charged page and answer. */
import type {
  BillingPageChargeRequested,
  OwnIndexQueryRequested,
  ProviderFetchRequested,
  ProviderRecordsFetched,
  SearchPageCharged,
  SearchPageGathered,
  SearchRecordsDeduplicated,
  SearchRequested,
  SearchResponded,
} from '../messages/index.js';
import { job, metadata, searchResponse, normalizedRecord, T0 } from './public.examples.js';

export function searchRequested(): SearchRequested.Value {
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
    // the gateway waits 5 s past the deadline; billing charges nothing in the last 2 s of that
    answer_by: new Date(Date.parse(T0) + 13_000).toISOString(),
  };
}

export function ownIndexQueryRequested(): OwnIndexQueryRequested.Value {
  return {
    v: 1,
    search_id: 'req_123',
    filters: { title_or: ['backend'] },
    want: 25,
    scope: { providers_routable: ['own_index', 'provider_a', 'provider_b'] },
    after: null,
  };
}

export function providerRecordsFetched(): ProviderRecordsFetched.Value {
  return {
    v: 1,
    search_id: 'req_123',
    batches: [
      { provider: 'provider_a', outcome: 'ok', latency_ms: 120, fetched_at: T0, records: [normalizedRecord()] },
    ],
  };
}

export function providerFetchRequested(): ProviderFetchRequested.Value {
  return {
    v: 1,
    search_id: 'req_123',
    providers: [{ provider: 'provider_a' }],
    filters: { title_or: ['backend'] },
    want: 25,
    deadline_at: Date.parse(T0) + 10_000,
  };
}

export function searchRecordsDeduplicated(): SearchRecordsDeduplicated.Value {
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

export function searchPageGathered(): SearchPageGathered.Value {
  const {
    credits_charged: _charged,
    jobs_already_paid: _paid,
    credits_remaining: _remaining,
    field_coverage: _coverage,
    providers: { contributions: _contributions, ...providers },
    ...draft
  } = metadata();
  return {
    v: 1,
    search_id: 'req_123',
    request_id: 'req_123',
    response: { data: [job()], metadata: { ...draft, providers } },
    credited_to: ['own_index'],
  };
}

export function billingPageChargeRequested(): BillingPageChargeRequested.Value {
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

export function searchPageCharged(): SearchPageCharged.Value {
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

export function searchResponded(): SearchResponded.Value {
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
