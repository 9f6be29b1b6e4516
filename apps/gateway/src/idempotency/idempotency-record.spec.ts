import { ErrorEnvelopeSchema, type SearchResponded } from '@jobs/contracts';
import {
  KEPT_REFUSAL_BYTES_MAX,
  keepingOf,
  nextStep,
  responseFromSearchAnswer,
  takingOver,
  type IdempotencyRecord,
} from './idempotency-record.js';

const NOW = 1_000_000;
const BASE = 'http://127.0.0.1:8080';
const LINKS = { publicBaseUrl: BASE, pricingUrl: 'https://pricing.test/plans' };
const record = (overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
  fingerprint: 'fp',
  state: 'running',
  request_id: 'req_first',
  lease_until: NOW + 1,
  service_version: '2026-10-01',
  ...overrides,
});
const stored = { status: 200, headers: { 'X-Credits-Charged': '3' }, body: '{}' };

describe('what a request with a used Idempotency-Key does', () => {
  it('refuses a different body whatever the state', () => {
    for (const state of ['running', 'failed', 'done'] as const) {
      expect(nextStep(record({ state, response: stored }), 'other', NOW, true)).toEqual({ kind: 'conflict' });
    }
  });

  it('replays a finished response', () => {
    expect(nextStep(record({ state: 'done', response: stored }), 'fp', NOW, false)).toEqual({
      kind: 'replay',
      response: stored,
    });
  });

  it('waits while the owner runs within its lease, on any route', () => {
    expect(nextStep(record(), 'fp', NOW, false)).toEqual({ kind: 'wait' });
    expect(nextStep(record(), 'fp', NOW, true)).toEqual({ kind: 'wait' });
  });

  it('re-attaches the sync search after a 5xx, and knows when its answer can no longer come', () => {
    expect(nextStep(record({ state: 'failed' }), 'fp', NOW, true)).toEqual({ kind: 'reattach', expired: false });
    expect(nextStep(record({ state: 'failed', lease_until: NOW }), 'fp', NOW, true)).toEqual({
      kind: 'reattach',
      expired: true,
    });
    expect(nextStep(record({ lease_until: NOW - 1 }), 'fp', NOW, true)).toEqual({ kind: 'reattach', expired: true });
  });

  it('runs other routes again after a 5xx or a lost owner', () => {
    expect(nextStep(record({ state: 'failed' }), 'fp', NOW, false)).toEqual({ kind: 'take-over' });
    expect(nextStep(record({ lease_until: NOW - 1 }), 'fp', NOW, false)).toEqual({ kind: 'take-over' });
  });

  it(
    'does not wait out the lease of an owner whose gateway died: ' +
      'other routes run again, the sync search looks for its answer',
    () => {
      expect(nextStep(record(), 'fp', NOW, false, false)).toEqual({ kind: 'take-over' });
      // the search itself runs on without the gateway and may still answer until the lease ends
      expect(nextStep(record(), 'fp', NOW, true, false)).toEqual({ kind: 'reattach', expired: false });
      expect(nextStep(record({ lease_until: NOW }), 'fp', NOW, true, false)).toEqual({
        kind: 'reattach',
        expired: true,
      });
      // a dead owner changes nothing for a finished response or another body
      expect(nextStep(record({ state: 'done', response: stored }), 'fp', NOW, false, false)).toEqual({
        kind: 'replay',
        response: stored,
      });
      expect(nextStep(record(), 'other', NOW, false, false)).toEqual({ kind: 'conflict' });
    },
  );
});

describe('the response a re-attached search gives', () => {
  const base = { v: 1 as const, search_id: 'req_abcdefghijklmnop', request_id: 'req_abcdefghijklmnop' };

  it('is the billed page with its billing headers under the search id', () => {
    const page = { data: [], next_cursor: null, metadata: { request_id: base.search_id } } as unknown as NonNullable<
      SearchResponded.Value['response']
    >;
    const response = responseFromSearchAnswer(
      { ...base, outcome: 'ok', response: page, credits_charged: 4, credits_remaining: 96 },
      '2026-10-01',
      0,
      LINKS,
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual(page);
    expect(response.headers).toMatchObject({
      'X-Request-Id': base.search_id,
      'X-Credits-Charged': '4',
      'X-Credits-Remaining': '96',
      'Service-Version': '2026-10-01',
    });
  });

  it('falls back to the account balance when the answer carries none', () => {
    const estimate = { request_id: base.search_id } as unknown as NonNullable<SearchResponded.Value['estimate']>;
    const response = responseFromSearchAnswer(
      { ...base, outcome: 'ok', estimate, credits_charged: 0, credits_remaining: null },
      '2026-10-01',
      42,
      LINKS,
    );
    expect(response.headers['X-Credits-Remaining']).toBe('42');
  });

  it('is the error envelope with the catalog status for a failed search', () => {
    const response = responseFromSearchAnswer(
      {
        ...base,
        outcome: 'error',
        error: { code: 'insufficient_credits', message: 'Needs 3 more credits.', credits_needed: 3 },
        credits_charged: 0,
        credits_remaining: 1,
      },
      '2026-10-01',
      1,
      LINKS,
    );
    expect(response.status).toBe(402);
    const envelope = ErrorEnvelopeSchema.parse(JSON.parse(response.body));
    expect(envelope.error).toMatchObject({
      code: 'insufficient_credits',
      credits_needed: 3,
      request_id: base.search_id,
      doc_url: `${BASE}/docs/errors#insufficient_credits`,
    });
    expect(envelope.error.upgrade_url).toBe('https://pricing.test/plans');
    expect(response.headers['X-Credits-Charged']).toBeUndefined();
  });
});

describe('a request taking a key over', () => {
  const record = (fields: Partial<IdempotencyRecord>): IdempotencyRecord => ({
    fingerprint: 'fp',
    state: 'running',
    request_id: 'req_new',
    lease_until: 0,
    service_version: '2026-10-01',
    ...fields,
  });

  it("keeps the key's first claim, or none when the record that held it had none (an older version's)", () => {
    const mine = record({ claimed_at: 2_000 });
    expect(takingOver(mine, record({ request_id: 'req_old', state: 'failed', claimed_at: 1_000 }))).toEqual({
      ...mine,
      claimed_at: 1_000,
    });
    expect(takingOver(mine, record({ request_id: 'req_old', state: 'failed' }))).not.toHaveProperty('claimed_at');
  });
});

describe('keepingOf', () => {
  it('keeps final answers, forgets "not now" ones, and leaves a failure open to a retry', () => {
    expect([200, 201, 400, 404, 409].map((status) => keepingOf(status))).toEqual([
      'kept',
      'kept',
      'kept',
      'kept',
      'kept',
    ]);
    // a 402 re-attached to after a 500 as well as one answered first: a retry after a top-up runs
    expect([402, 429].map((status) => keepingOf(status))).toEqual(['forgotten', 'forgotten']);
    expect([500, 503].map((status) => keepingOf(status))).toEqual(['failed', 'failed']);
  });

  it('forgets a refusal larger than any error the service writes, never a success', () => {
    expect(keepingOf(400, KEPT_REFUSAL_BYTES_MAX)).toBe('kept');
    expect(keepingOf(400, KEPT_REFUSAL_BYTES_MAX + 1)).toBe('forgotten');
    expect(keepingOf(200, 500_000)).toBe('kept');
  });
});
