import { ErrorEnvelopeSchema, JobSearchResponseSchema } from '@jobs/contracts';
import { api, stack } from './stack.js';

/**
 * The door of every request: rate limits per account in Redis,
 * Idempotency-Key on authenticated POSTs, and Service-Version, over real HTTP on the running stack.
 */

interface NewAccount {
  account_id: string;
  live_key: string;
  test_key: string;
}

async function admin(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${stack.adminUrl}/admin${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function newAccount(body: {
  plan: string;
  credits: number;
  rate_limit?: { limit: number; window_seconds: number };
}): Promise<NewAccount> {
  const res = await admin('/accounts', body);
  expect(res.status).toBe(201);
  return res.body as unknown as NewAccount;
}

const search = { filters: { title_or: ['engineer'] }, waterfall: { providers: ['own_index'] }, limit: 5 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const intHeader = (headers: Headers, name: string) => {
  const value = headers.get(name);
  expect(value).toMatch(/^\d+$/);
  return Number(value);
};

describe('rate limits per account', () => {
  it(
    'reports RateLimit-Limit, a decreasing RateLimit-Remaining ' +
      'and RateLimit-Reset in seconds, on errors after auth too',
    async () => {
      const { test_key } = await newAccount({
        plan: 'starter',
        credits: 10,
        rate_limit: { limit: 10, window_seconds: 60 },
      });
      const remaining: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await api('/v1/account', { key: test_key });
        expect(res.status).toBe(200);
        expect(intHeader(res.headers, 'ratelimit-limit')).toBe(10);
        remaining.push(intHeader(res.headers, 'ratelimit-remaining'));
        const reset = intHeader(res.headers, 'ratelimit-reset');
        expect(reset).toBeGreaterThanOrEqual(1);
        expect(reset).toBeLessThanOrEqual(60);
      }
      expect(remaining).toEqual([9, 8, 7]);

      // A 400 after authentication is counted and carries the headers as well.
      const invalid = await api('/v1/jobs/search', { key: test_key, body: { limit: 1000 } });
      expect(invalid.status).toBe(400);
      expect(intHeader(invalid.headers, 'ratelimit-remaining')).toBe(6);
      expect(invalid.headers.get('retry-after')).toBeNull();
    },
  );

  it(
    'answers 429 rate_limited with an integer Retry-After beyond ' +
      'the limit, and the refused search charges nothing',
    async () => {
      const account = await newAccount({ plan: 'pro', credits: 100, rate_limit: { limit: 3, window_seconds: 60 } });
      const before = await api('/v1/account', { key: account.live_key });
      expect(before.status).toBe(200);
      const credits = before.body!['credits_remaining'] as number;
      expect(credits).toBe(100);
      for (let i = 0; i < 2; i++) expect((await api('/v1/account', { key: account.live_key })).status).toBe(200);

      const refused = await api('/v1/jobs/search', { key: account.live_key, body: search });
      expect(refused.status).toBe(429);
      const envelope = ErrorEnvelopeSchema.parse(refused.body);
      expect(envelope.error.code).toBe('rate_limited');
      expect(envelope.error.type).toBe('rate_limit_error');
      expect(envelope.error.request_id).toBe(refused.headers.get('x-request-id'));
      expect(refused.body).not.toHaveProperty('data');
      const retryAfter = intHeader(refused.headers, 'retry-after');
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(intHeader(refused.headers, 'ratelimit-remaining')).toBe(0);
      expect(refused.headers.get('x-credits-charged')).toBeNull();

      // The account itself is limited now, so read the balance through the admin API: a top-up
      // of 1 answers the balance, which must be the untouched 100 plus 1 (nothing was charged,
      // even after the time a search takes).
      await sleep(1500);
      const topUp = await admin(`/accounts/${account.account_id}/credits`, { amount: 1 });
      expect(topUp.status).toBe(200);
      expect(topUp.body['credits_remaining']).toBe(credits + 1);
    },
  );

  it('lets exactly the limit through when requests race', async () => {
    const { test_key } = await newAccount({
      plan: 'starter',
      credits: 10,
      rate_limit: { limit: 5, window_seconds: 60 },
    });
    const results = await Promise.all(Array.from({ length: 20 }, () => api('/v1/account', { key: test_key })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect(
      results
        .filter((r) => r.status === 200)
        .map((r) => Number(r.headers.get('ratelimit-remaining')))
        .sort(),
    ).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response (status, body, billing headers) and charges nothing again', async () => {
    const { live_key } = await newAccount({ plan: 'pro', credits: 1000 });
    const key = `replay-${Date.now()}`;
    const first = await api('/v1/jobs/search', { key: live_key, body: search, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(200);
    const charged = JobSearchResponseSchema.parse(first.body).metadata.credits_charged;
    expect(charged).toBeGreaterThan(0);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    // Same body with its keys in another order: the same request.
    const reordered = { limit: 5, waterfall: { providers: ['own_index'] }, filters: { title_or: ['engineer'] } };
    const again = await api('/v1/jobs/search', { key: live_key, body: reordered, headers: { 'idempotency-key': key } });
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('x-credits-charged')).toBe(first.headers.get('x-credits-charged'));
    expect(again.headers.get('x-credits-remaining')).toBe(first.headers.get('x-credits-remaining'));
    expect(again.headers.get('x-request-id')).toBe(first.headers.get('x-request-id'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    const account = await api('/v1/account', { key: live_key });
    expect(account.body!['credits_remaining']).toBe(1000 - charged);
  });

  it('scopes a key by the endpoint, however its path is encoded: a retry to /v1/jobs/%73earch replays', async () => {
    const { live_key } = await newAccount({ plan: 'pro', credits: 1000 });
    const key = `encoded-${Date.now()}`;
    const first = await api('/v1/jobs/search', { key: live_key, body: search, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(200);
    const again = await api('/v1/jobs/%73earch', { key: live_key, body: search, headers: { 'idempotency-key': key } });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('answers 409 idempotency_conflict for the same key with a different body', async () => {
    const { test_key } = await newAccount({ plan: 'pro', credits: 10 });
    const key = `conflict-${Date.now()}`;
    expect(
      (await api('/v1/jobs/search', { key: test_key, body: search, headers: { 'idempotency-key': key } })).status,
    ).toBe(200);
    const conflict = await api('/v1/jobs/search', {
      key: test_key,
      body: { ...search, limit: 6 },
      headers: { 'idempotency-key': key },
    });
    expect(conflict.status).toBe(409);
    const envelope = ErrorEnvelopeSchema.parse(conflict.body);
    expect(envelope.error.code).toBe('idempotency_conflict');
    expect(envelope.error.type).toBe('conflict_error');
  });

  it('keeps a 4xx answer as final: the same invalid request replays the same 400', async () => {
    const { test_key } = await newAccount({ plan: 'pro', credits: 10 });
    const key = `invalid-${Date.now()}`;
    const first = await api('/v1/jobs/search', {
      key: test_key,
      body: { limit: 1000 },
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(400);
    const again = await api('/v1/jobs/search', {
      key: test_key,
      body: { limit: 1000 },
      headers: { 'idempotency-key': key },
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('forgets a 402: after a top-up the same key and body run the search, charged once', async () => {
    const account = await newAccount({ plan: 'pro', credits: 0 });
    const headers = { 'idempotency-key': `top-up-${Date.now()}` };
    const refused = await api('/v1/jobs/search', { key: account.live_key, body: search, headers });
    expect(refused.status).toBe(402);
    expect(ErrorEnvelopeSchema.parse(refused.body).error.code).toBe('insufficient_credits');
    expect((await admin(`/accounts/${account.account_id}/credits`, { amount: 100 })).status).toBe(200);

    const retried = await api('/v1/jobs/search', { key: account.live_key, body: search, headers });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const charged = JobSearchResponseSchema.parse(retried.body).metadata.credits_charged;
    expect(charged).toBeGreaterThan(0);
    // from now on the 200 is the key's answer
    const again = await api('/v1/jobs/search', { key: account.live_key, body: search, headers });
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(again.body).toEqual(retried.body);
    expect((await api('/v1/account', { key: account.live_key })).body!['credits_remaining']).toBe(100 - charged);
  });

  it('runs two concurrent requests with one key once: one search, charged once', async () => {
    const { live_key } = await newAccount({ plan: 'pro', credits: 1000 });
    const key = `concurrent-${Date.now()}`;
    const [a, b] = await Promise.all(
      [0, 1].map(() => api('/v1/jobs/search', { key: live_key, body: search, headers: { 'idempotency-key': key } })),
    );
    expect(a!.status).toBe(200);
    expect(b!.status).toBe(200);
    expect(b!.body).toEqual(a!.body);
    const body = JobSearchResponseSchema.parse(a!.body);
    expect(body.metadata.credits_charged).toBeGreaterThan(0);
    // One of the two was the replay of the other's search.
    expect([a!.headers.get('idempotent-replayed'), b!.headers.get('idempotent-replayed')].sort()).toEqual(
      ['true', null].sort(),
    );
    const account = await api('/v1/account', { key: live_key });
    expect(account.body!['credits_remaining']).toBe(1000 - body.metadata.credits_charged);
  });

  it('accepts a 255-character key and refuses a 256-character one with 400 on param Idempotency-Key', async () => {
    const { test_key } = await newAccount({ plan: 'pro', credits: 10 });
    const ok = await api('/v1/jobs/search', {
      key: test_key,
      body: search,
      headers: { 'idempotency-key': 'k'.repeat(255) },
    });
    expect(ok.status).toBe(200);
    const tooLong = await api('/v1/jobs/search', {
      key: test_key,
      body: search,
      headers: { 'idempotency-key': 'k'.repeat(256) },
    });
    expect(tooLong.status).toBe(400);
    const envelope = ErrorEnvelopeSchema.parse(tooLong.body);
    expect(envelope.error.code).toBe('invalid_request');
    expect(envelope.error.param).toBe('Idempotency-Key');
  });
});

describe('Service-Version', () => {
  let testKey: string;
  beforeAll(async () => {
    testKey = (await newAccount({ plan: 'pro', credits: 10 })).test_key;
  });

  it('accepts 2026-10-01 and reports it', async () => {
    const res = await api('/v1/account', { key: testKey, headers: { 'service-version': '2026-10-01' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('service-version')).toBe('2026-10-01');
  });

  it("uses the account's pinned version when the header is absent", async () => {
    const res = await api('/v1/account', { key: testKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('service-version')).toBe('2026-10-01');
  });

  it(
    'refuses any other value with 400 invalid_request on param ' + 'Service-Version, listing the supported versions',
    async () => {
      for (const key of [testKey, undefined]) {
        const res = await api('/v1/account', { ...(key ? { key } : {}), headers: { 'service-version': '2025-01-01' } });
        expect(res.status).toBe(400);
        const envelope = ErrorEnvelopeSchema.parse(res.body);
        expect(envelope.error.code).toBe('invalid_request');
        expect(envelope.error.param).toBe('Service-Version');
        expect(envelope.error.message).toContain('2026-10-01');
        expect(res.headers.get('service-version')).toBe('2026-10-01');
      }
    },
  );

  it('reports the version on 200, 400, 401 and 404 responses', async () => {
    const responses = {
      200: await api('/v1/account', { key: testKey }),
      400: await api('/v1/jobs/search', { key: testKey, body: { limit: 1000 } }),
      401: await api('/v1/account'),
      404: await api('/v1/no-such-endpoint', { key: testKey }),
    };
    for (const [status, res] of Object.entries(responses)) {
      expect(res.status).toBe(Number(status));
      expect(res.headers.get('service-version')).toBe('2026-10-01');
    }
  });
});

describe('HEAD on the API', () => {
  it('is answered 405 with Allow: GET, charging and counting nothing; a GET of the same job charges', async () => {
    const payer = await newAccount({ plan: 'pro', credits: 100 });
    const found = await api('/v1/jobs/search', { key: payer.live_key, body: search });
    expect(found.status).toBe(200);
    const jobId = JobSearchResponseSchema.parse(found.body).data[0]!.id;

    const prober = await newAccount({ plan: 'pro', credits: 10, rate_limit: { limit: 5, window_seconds: 60 } });
    // an encoded path reaches the same route: refused the same way
    for (const path of [
      `/v1/jobs/${jobId}`,
      '/v1/companies/example.com',
      '/%761/companies/example.com',
      '/v1/account',
    ]) {
      const head = await fetch(new URL(path, stack.baseUrl), {
        method: 'HEAD',
        headers: { authorization: `Bearer ${prober.live_key}` },
      });
      expect([path, head.status, head.headers.get('allow')]).toEqual([path, 405, 'GET']);
      expect(head.headers.get('x-credits-charged')).toBeNull();
    }
    // a path with no route is a 404 as for any method
    const nowhere = await fetch(new URL('/v1/no-such-endpoint', stack.baseUrl), { method: 'HEAD' });
    expect(nowhere.status).toBe(404);

    const account = await api('/v1/account', { key: prober.live_key });
    expect(account.body!['credits_remaining']).toBe(10);
    // the HEADs took none of the window's 5 requests: this read is the first
    expect(intHeader(account.headers, 'ratelimit-remaining')).toBe(4);
    const got = await api(`/v1/jobs/${jobId}`, { key: prober.live_key });
    expect([got.status, got.headers.get('x-credits-charged')]).toEqual([200, '1']);
  });
});
