/** The async search chunk pipeline: one chunk of provider_a, then its charge. */
import { job, normalizedRecord } from './public.examples.js';

export function asyncChunkRequested() {
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

export function asyncChunkFetched() {
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

export function asyncChunkDeduplicated() {
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

export function asyncChunkChargeRequested() {
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

export function asyncChunkCharged() {
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
