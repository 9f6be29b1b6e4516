import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SearchResponded } from '@jobs/contracts';
import type { AccountBalances } from '../account/account-balances.js';
import type { GatewayConfig } from '../config/gateway.config.js';
import { StoredResponse } from '../http/stored-response.js';
import type { GatewayLiveness } from './gateway-liveness.js';
import type { IdempotencyRecord } from './idempotency-record.js';
import { IdempotencyGate } from './idempotency.gate.js';
import { ANSWER_JOINING, type IdempotencyStore } from './idempotency.store.js';
import type { ReplaySealer } from './replay-sealer.js';

const body = { filters: {}, limit: 3 };

/** A retry of a sync search whose first attempt answered 500 and whose search has since answered `answer`. */
async function retryAfter(answer: SearchResponded.Value | typeof ANSWER_JOINING, { leaseEnded = false } = {}) {
  let record: IdempotencyRecord | null = null;
  const writes: string[] = [];
  const store = {
    keyFor: () => 'idem:acc_1:live:POST:/v1/jobs/search:k1',
    claim: (_key: string, mine: IdempotencyRecord) => {
      if (record) return Promise.resolve(record);
      record = mine;
      return Promise.resolve(null);
    },
    answerOf: () => Promise.resolve(answer),
    replaceIfOwner: (_key: string, owner: string, next: IdempotencyRecord) => {
      if (record?.request_id !== owner) return Promise.resolve(false);
      writes.push(`${next.state}:${next.request_id}`);
      record = next;
      return Promise.resolve(true);
    },
    releaseIfOwner: (_key: string, owner: string) => {
      if (record?.request_id !== owner) return Promise.resolve(false);
      writes.push('released');
      record = null;
      return Promise.resolve(true);
    },
    watchSearch: () => Promise.resolve(),
  } as unknown as IdempotencyStore;
  const gate = new IdempotencyGate(
    store,
    { incarnation: 'gw_1', isAlive: () => Promise.resolve(true) } as unknown as GatewayLiveness,
    { creditsRemaining: () => Promise.resolve(100) } as unknown as AccountBalances,
    {} as ReplaySealer,
    {
      IDEMPOTENCY_LEASE_MS: 60_000,
      IDEMPOTENCY_WAIT_MS: 200,
      PUBLIC_BASE_URL: 'http://127.0.0.1:8080',
      PUBLIC_PRICING_URL: 'https://pricing.test/plans',
    } as GatewayConfig,
  );
  const request = (id: string) =>
    ({
      method: 'POST',
      url: '/v1/jobs/search',
      routeOptions: { url: '/v1/jobs/search' },
      headers: { 'idempotency-key': 'k1' },
      body,
      requestId: id,
      principal: { accountId: 'acc_1', mode: 'live' },
    }) as unknown as FastifyRequest;
  const reply = { getHeader: () => undefined } as unknown as FastifyReply;
  // the first attempt owned the key and failed (the recorder marks a 5xx `failed`)
  await gate.pass(request('srch_first'), reply, true);
  record = { ...record!, state: 'failed', ...(leaseEnded ? { lease_until: 0 } : {}) };
  const retry = request('srch_retry');
  const outcome = await gate.pass(retry, reply, true).then(
    () => 'ran' as const,
    (error: unknown) => error,
  );
  return { outcome, writes, retry };
}

const answered = (over: Partial<SearchResponded.Value>): SearchResponded.Value =>
  ({
    v: 1,
    search_id: 'srch_first',
    request_id: 'srch_first',
    credits_charged: 0,
    credits_remaining: 2,
    ...over,
  }) as SearchResponded.Value;

describe('IdempotencyGate, a retry that re-attaches to its search', () => {
  it('answers a 402 the search met and forgets it, so the retry after a top-up runs', async () => {
    const { outcome, writes } = await retryAfter(
      answered({
        outcome: 'error',
        error: { code: 'insufficient_credits', message: 'Not enough credits.', credits_needed: 3 },
      }),
    );
    expect(outcome).toBeInstanceOf(StoredResponse);
    expect((outcome as StoredResponse).status).toBe(402);
    expect(writes).toEqual(['released']);
  });

  it('runs afresh after a search that failed, instead of replaying the failure', async () => {
    const { outcome, writes, retry } = await retryAfter(
      answered({ outcome: 'error', error: { code: 'internal_error', message: 'The search failed.' } }),
    );
    expect(outcome).toBe('ran');
    expect(writes).toEqual(['running:srch_retry']);
    expect(retry.idempotency?.record.request_id).toBe('srch_retry');
  });

  it('waits for a page billing charged, and never runs the search afresh, not even past the lease', async () => {
    // a search run afresh would be charged again under its own id, up to its max_credits
    for (const leaseEnded of [false, true]) {
      const waiting = await retryAfter(ANSWER_JOINING, { leaseEnded });
      expect(waiting.outcome).not.toBe('ran');
      expect(waiting.writes).toEqual([]);
    }
  });
});
