import { ValueSchema as BillingQuery } from './billing-query-requested.schema.js';
import { ValueSchema as DedupeQuery } from './dedupe-query-requested.schema.js';
import { ValueSchema as QueryResponded } from './query-responded.schema.js';
import { NormalizedProviderRecordSchema } from '../records/normalized-provider-record.schema.js';
import { examples } from '../examples.js';

describe('company profile queries', () => {
  it('dedupe answers company.profile for a valid domain and a plan scope', () => {
    const value = {
      v: 1,
      query_id: 'req_q1',
      account_id: 'acc_1',
      query: { kind: 'company.profile', domain: 'acme.example', providers_routable: ['own_index'] },
    };
    expect(DedupeQuery.safeParse(value).success).toBe(true);
    expect(
      DedupeQuery.safeParse({ ...value, query: { ...value.query, domain: 'https://acme.example/x' } }).success,
    ).toBe(false);
    expect(DedupeQuery.safeParse({ ...value, query: { ...value.query, providers_routable: [] } }).success).toBe(false);
  });

  it('billing charges company.charge with an operation', () => {
    const base = { v: 1, query_id: 'req_q1', account_id: 'acc_1', mode: 'live' };
    expect(
      BillingQuery.safeParse({
        ...base,
        query: { kind: 'company.charge', domain: 'acme.example', operation: 'GET /v1/companies/acme.example' },
      }).success,
    ).toBe(true);
    expect(
      BillingQuery.safeParse({ ...base, query: { kind: 'company.charge', domain: 'acme.example', operation: 'read' } })
        .success,
    ).toBe(false);
  });

  it('answers carry a profile or a charge', () => {
    const profile = {
      company: { id: 'cmp_1', name: 'Acme', domain: 'acme.example' },
      open_jobs_count: 2,
      is_hiring: { value: true, confidence: 0.9, basis: 'two open jobs seen today' },
      hiring_pulse: { direction: 'up', open_jobs_30d_change: 2 },
      top_job_families: [{ job_family: 'engineering', open_jobs: 2 }],
      sources: [{ provider: 'provider_a', open_jobs: 2, last_seen_at: '2026-10-01T12:00:00.000Z' }],
    };
    expect(
      QueryResponded.safeParse({
        v: 1,
        query_id: 'req_q1',
        outcome: 'ok',
        result: { kind: 'company.profile', profile },
      }).success,
    ).toBe(true);
    expect(
      QueryResponded.safeParse({
        v: 1,
        query_id: 'req_q1',
        outcome: 'ok',
        result: { kind: 'company.charge', credits_charged: 1, credits_remaining: 9 },
      }).success,
    ).toBe(true);
    expect(
      QueryResponded.safeParse({
        v: 1,
        query_id: 'req_q1',
        outcome: 'ok',
        result: { kind: 'company.charge', credits_charged: -1, credits_remaining: 9 },
      }).success,
    ).toBe(false);
  });

  it('a normalized record may say it is closed and why (own crawler), and stays valid without it', () => {
    const record = examples.normalizedRecord();
    expect(NormalizedProviderRecordSchema.safeParse(record).success).toBe(true);
    expect(
      NormalizedProviderRecordSchema.safeParse({ ...record, status: 'closed', closed_reason: 'filled' }).success,
    ).toBe(true);
    expect(
      NormalizedProviderRecordSchema.safeParse({ ...record, status: 'closed', closed_reason: 'unknown' }).success,
    ).toBe(false);
  });
});
