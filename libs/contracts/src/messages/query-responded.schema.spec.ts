import { examples } from '../examples.js';
import { ValueSchema as BillingQuery } from './billing-query-requested.schema.js';
import { ValueSchema as DedupeQuery } from './dedupe-query-requested.schema.js';
import { ValueSchema as OrchestratorQuery } from './orchestrator-query-requested.schema.js';
import { ValueSchema } from './query-responded.schema.js';

describe('query.responded', () => {
  it('accepts an ok answer with a result and an error answer with an error', () => {
    expect(ValueSchema.safeParse(examples.queryResponded()).success).toBe(true);
    expect(
      ValueSchema.safeParse({
        v: 1,
        query_id: 'req_1',
        outcome: 'error',
        error: { code: 'not_found', message: 'No such job.' },
      }).success,
    ).toBe(true);
  });

  it('rejects an ok answer without a result, or one carrying an error too', () => {
    expect(ValueSchema.safeParse({ v: 1, query_id: 'req_1', outcome: 'ok' }).success).toBe(false);
    expect(
      ValueSchema.safeParse({ ...examples.queryResponded(), error: { code: 'not_found', message: 'x' } }).success,
    ).toBe(false);
  });
});

describe('billing.query.requested', () => {
  it('bounds the ledger page and checks the operation', () => {
    const base = { v: 1, query_id: 'req_1', account_id: 'acc_1', mode: 'live' };
    expect(BillingQuery.safeParse({ ...base, query: { kind: 'ledger.list', limit: 100 } }).success).toBe(true);
    expect(BillingQuery.safeParse({ ...base, query: { kind: 'ledger.list', limit: 101 } }).success).toBe(false);
    expect(
      BillingQuery.safeParse({ ...base, query: { kind: 'job.charge', job_id: 'job_1', operation: 'fetch it' } })
        .success,
    ).toBe(false);
  });
});

describe('dedupe.query.requested', () => {
  it('needs at least one routable provider', () => {
    const value = examples.dedupeQueryRequested();
    expect(DedupeQuery.safeParse(value).success).toBe(true);
    expect(DedupeQuery.safeParse({ ...value, query: { ...value.query, providers_routable: [] } }).success).toBe(false);
  });
});

describe('orchestrator.query.requested watch.set_status', () => {
  it('pauses or resumes one watch: the status is active or paused, the id a watch id', () => {
    const value = examples.orchestratorQueryRequested();
    const query = (q: Record<string, unknown>) =>
      OrchestratorQuery.safeParse({ ...value, query: { kind: 'watch.set_status', watch_id: 'wat_1', ...q } }).success;
    expect(query({ status: 'paused' })).toBe(true);
    expect(query({ status: 'active' })).toBe(true);
    expect(query({ status: 'deleted' })).toBe(false);
    expect(query({ status: 'paused', watch_id: 'job_1' })).toBe(false);
    const watch = {
      id: 'wat_1',
      type: 'company',
      domain: 'acme.example',
      filters: null,
      webhook_url: 'https://hooks.example.com/jobs',
      events: ['job.opened'],
      status: 'paused',
      created_at: '2026-10-01T00:00:00.000Z',
    };
    expect(
      ValueSchema.safeParse({ v: 1, query_id: 'req_1', outcome: 'ok', result: { kind: 'watch.set_status', watch } })
        .success,
    ).toBe(true);
  });
});
