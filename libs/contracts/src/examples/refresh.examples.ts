/** A refresh: the operator request, a round sweep and a pass sweep with their records. */
import type { RefreshFetchRequested, RefreshRecordsFetched, RefreshRequested } from '../messages/index.js';
import { normalizedRecord, T0 } from './public.examples.js';

export function refreshRequested(): RefreshRequested.Value {
  return { v: 1, refresh_id: 'rfr_1', requested_at: T0 };
}

export function refreshFetchRequested(): RefreshFetchRequested.Value {
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

export function refreshPassFetchRequested(): RefreshFetchRequested.Value {
  return {
    v: 1,
    refresh_id: 'rfr_1',
    kind: 'new_listings',
    scope: { key: 'new_listings', filters: {} },
    provider: 'provider_a',
    listed_since: Date.parse(T0) - 120_000,
    timeout_ms: 120_000,
    call_timeout_ms: 30_000,
  };
}

export function refreshBoardFetchRequested(): RefreshFetchRequested.Value {
  return {
    v: 1,
    refresh_id: 'rfr_1',
    kind: 'board',
    scope: {
      key: 'board:greenhouse/acme',
      filters: {},
      board: {
        ats: 'greenhouse',
        board: 'acme',
        base_url: 'https://boards-api.greenhouse.io',
        company_domain: 'acme.com',
        company_name: 'Acme',
      },
    },
    provider: 'own_index',
    timeout_ms: 120_000,
    call_timeout_ms: 30_000,
  };
}

export function refreshPassRecordsFetched(): RefreshRecordsFetched.Value {
  return {
    ...refreshRecordsFetched(),
    kind: 'new_listings',
    scope: { key: 'new_listings', filters: {} },
    complete: false,
  };
}

export function refreshRecordsFetched(): RefreshRecordsFetched.Value {
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
