/** Request-reply queries to billing, dedupe, the dispatcher and the orchestrator, and an answer. */
import type {
  BillingQueryRequested,
  DedupeQueryRequested,
  DispatcherQueryRequested,
  OrchestratorQueryRequested,
  QueryResponded,
} from '../messages/index.js';

export function billingQueryRequested(): BillingQueryRequested.Value {
  return {
    v: 1,
    query_id: 'req_query1',
    account_id: 'acc_demo',
    mode: 'live',
    query: { kind: 'job.charge', job_id: 'job_1', operation: 'GET /v1/jobs/job_1' },
  };
}

export function dedupeQueryRequested(): DedupeQueryRequested.Value {
  return {
    v: 1,
    query_id: 'req_query2',
    account_id: 'acc_demo',
    query: { kind: 'job.get', job_id: 'job_1', providers_routable: ['own_index'] },
  };
}

export function queryResponded(): QueryResponded.Value {
  return {
    v: 1,
    query_id: 'req_query1',
    outcome: 'ok',
    result: { kind: 'job.charge', reason: 'charged', credits_charged: 1, credits_remaining: 99 },
  };
}

export function dispatcherQueryRequested(): DispatcherQueryRequested.Value {
  return {
    v: 1,
    query_id: 'req_query3',
    account_id: 'acc_demo',
    mode: 'live',
    query: { kind: 'events.list', limit: 100 },
  };
}

export function orchestratorQueryRequested(): OrchestratorQueryRequested.Value {
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
