import { JobsClient, type JobsClientOptions } from './client.js';
import {
  ApiConnectionError,
  ApiError,
  AuthenticationError,
  ConflictError,
  InsufficientCreditsError,
  InternalServerError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from './errors.js';
import { answer, envelope, FakeFetch, recordingSleep } from './fake-fetch.spec-helper.js';
import type { RetryEvent } from './transport.js';

const LIVE = 'svc_live_abcdefghijklmnop';
const searchBody = { filters: { title_or: ['engineer'] }, limit: 2 };
const page = { data: [], next_cursor: null, metadata: { credits_charged: 0 } };
const billingHeaders = {
  'x-credits-charged': '3',
  'x-credits-remaining': '97',
  'x-request-id': 'req_ok1',
  'ratelimit-limit': '600',
  'ratelimit-remaining': '599',
  'ratelimit-reset': '42',
  'service-version': '2026-10-01',
};

function clientWith(fake: FakeFetch, extra: Partial<JobsClientOptions> = {}) {
  const { sleep, waits } = recordingSleep();
  const retries: RetryEvent[] = [];
  let n = 0;
  const client = new JobsClient({
    baseUrl: 'http://api.test/v1',
    apiKey: LIVE,
    fetch: fake.fetch,
    sleep,
    random: () => 0.5,
    idempotencyKey: () => `generated-${++n}`,
    onRetry: (event) => retries.push(event),
    ...extra,
  });
  return { client, waits, retries };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('requests', () => {
  it('sends the key, the version, JSON and a generated Idempotency-Key on POST', async () => {
    const fake = new FakeFetch([answer(200, page, billingHeaders)]);
    const { client } = clientWith(fake);
    await client.jobs.search(searchBody);
    expect(fake.sent[0]).toMatchObject({
      url: 'http://api.test/v1/jobs/search',
      method: 'POST',
      body: searchBody,
      headers: {
        authorization: `Bearer ${LIVE}`,
        'service-version': '2026-10-01',
        'content-type': 'application/json',
        'idempotency-key': 'generated-1',
      },
    });
  });

  it("generates a random UUID per POST by default and uses the caller's key when given", async () => {
    const fake = new FakeFetch([], () => answer(200, page, billingHeaders));
    const client = new JobsClient({ baseUrl: 'http://api.test', apiKey: LIVE, fetch: fake.fetch });
    await client.jobs.search(searchBody);
    await client.jobs.search(searchBody);
    await client.jobs.search(searchBody, { idempotencyKey: 'mine-1' });
    const keys = fake.sent.map((s) => s.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe('mine-1');
    expect(fake.sent[0]!.url).toBe('http://api.test/v1/jobs/search');
  });

  it('sends no Idempotency-Key on GET and DELETE, and encodes path parameters', async () => {
    const fake = new FakeFetch([answer(200, {}, billingHeaders), answer(204)]);
    const { client } = clientWith(fake);
    await client.companies.get('acme.example');
    const info = await client.watches.delete('wat_1/x');
    expect(fake.sent.map((s) => [s.method, s.url, s.headers['idempotency-key']])).toEqual([
      ['GET', 'http://api.test/v1/companies/acme.example', undefined],
      ['DELETE', 'http://api.test/v1/watches/wat_1%2Fx', undefined],
    ]);
    expect(info.status).toBe(204);
  });

  it('calls the sandbox without a key, even when the client has one, and works with no key at all', async () => {
    const fake = new FakeFetch([], () => answer(200, page, { 'x-credits-charged': '0', 'x-credits-remaining': '0' }));
    const keyless = new JobsClient({ baseUrl: 'http://api.test/v1', fetch: fake.fetch });
    expect(keyless.mode).toBe('keyless');
    await keyless.sandbox.search({ limit: 3 });
    await clientWith(fake).client.sandbox.dryRun({ filters: {} });
    expect(fake.sent.map((s) => s.headers['authorization'])).toEqual([undefined, undefined]);
    expect(fake.sent[1]!.body).toEqual({ filters: {}, dry_run: true });
    expect(new JobsClient({ baseUrl: 'http://x', apiKey: 'svc_test_abc' }).mode).toBe('test');
    expect(() => new JobsClient({ baseUrl: 'http://x', apiKey: 'sk_abc' })).toThrow(TypeError);
    expect(() => new JobsClient({ baseUrl: 'http://x', apiKey: '' })).toThrow(TypeError);
  });

  it('omits Service-Version when told to, and keeps an explicit version path in the base URL', async () => {
    const fake = new FakeFetch([answer(200, {})]);
    const client = new JobsClient({
      baseUrl: 'https://h.example/api/v1/',
      apiKey: LIVE,
      fetch: fake.fetch,
      serviceVersion: null,
    });
    await client.account();
    expect(fake.sent[0]!.url).toBe('https://h.example/api/v1/account');
    expect(fake.sent[0]!.headers['service-version']).toBeUndefined();
  });

  it('exposes credit, rate-limit and request headers as a non-enumerable $response', async () => {
    const fake = new FakeFetch([answer(200, page, { ...billingHeaders, 'idempotent-replayed': 'true' })]);
    const { client } = clientWith(fake);
    const result = await client.jobs.search(searchBody, { idempotencyKey: 'k1' });
    expect(result.$response).toMatchObject({
      status: 200,
      requestId: 'req_ok1',
      serviceVersion: '2026-10-01',
      replayed: true,
      idempotencyKey: 'k1',
      credits: { charged: 3, remaining: 97 },
      rateLimit: { limit: 600, remaining: 599, resetSeconds: 42 },
      attempts: 1,
    });
    expect(Object.keys(result)).toEqual(['data', 'next_cursor', 'metadata']);
    expect(JSON.parse(JSON.stringify(result))).toEqual(page);
  });

  it('reports no credits and no rate limit where the answer has none', async () => {
    const fake = new FakeFetch([answer(200, { plan: 'pro' })]);
    const { client } = clientWith(fake);
    const account = await client.account();
    expect(account.$response.credits).toBeNull();
    expect(account.$response.rateLimit).toBeNull();
    expect(account.$response.idempotencyKey).toBeNull();
  });
});

describe('retries', () => {
  it('waits Retry-After on 429, then sends the same request with the same key', async () => {
    const fake = new FakeFetch([
      envelope(429, 'rate_limited', 'rate_limit_error', {}, { 'retry-after': '3' }),
      answer(200, page, billingHeaders),
    ]);
    const { client, waits, retries } = clientWith(fake);
    const result = await client.jobs.search(searchBody);
    expect(waits).toEqual([3_000]);
    expect(fake.sent).toHaveLength(2);
    expect(fake.sent[1]).toEqual(fake.sent[0]);
    expect(result.$response.attempts).toBe(2);
    expect(retries).toMatchObject([
      { attempt: 1, reason: 'rate_limited', delayMs: 3_000, status: 429, idempotencyKey: 'generated-1' },
    ]);
    expect(retries[0]!.error).toBeInstanceOf(RateLimitError);
  });

  it('waits Retry-After on 503 (the service at capacity)', async () => {
    const fake = new FakeFetch([
      envelope(503, 'rate_limited', 'rate_limit_error', {}, { 'retry-after': '2' }),
      answer(200, {}),
    ]);
    const { client, waits } = clientWith(fake);
    await client.account();
    expect(waits).toEqual([2_000]);
  });

  it('backs off with jitter on 500 and network errors, keeping the Idempotency-Key', async () => {
    const fake = new FakeFetch([
      envelope(500, 'internal_error', 'api_error'),
      { fail: new TypeError('fetch failed') },
      answer(200, page, billingHeaders),
    ]);
    const { client, waits, retries } = clientWith(fake);
    const result = await client.jobs.search(searchBody, { idempotencyKey: 'same-key' });
    expect(fake.sent.map((s) => s.headers['idempotency-key'])).toEqual(['same-key', 'same-key', 'same-key']);
    expect(waits).toEqual([375, 750]);
    expect(retries.map((r) => [r.reason, r.status])).toEqual([
      ['server_error', 500],
      ['network_error', null],
    ]);
    expect(result.$response.attempts).toBe(3);
  });

  it('retries a GET after a network error too (safe to retry)', async () => {
    const fake = new FakeFetch([
      { fail: new TypeError('socket hang up') },
      answer(200, { data: [], next_cursor: null }),
    ]);
    const { client } = clientWith(fake);
    await client.ledger.list();
    expect(fake.sent).toHaveLength(2);
  });

  it.each([
    ['no answer', { fail: new TypeError('socket hang up') }, ApiConnectionError],
    ['a 502', envelope(502, 'internal_error', 'api_error'), ApiError],
    ['a 504', envelope(504, 'internal_error', 'api_error'), ApiError],
  ] as const)(
    'never sends a company read again after %s: the lost answer may have been charged',
    async (_, first, Class) => {
      const fake = new FakeFetch([first, answer(200, { company: {} }, billingHeaders)]);
      const { client } = clientWith(fake);
      expect(await caught(client.companies.get('acme.example'))).toBeInstanceOf(Class);
      expect(fake.sent).toHaveLength(1);
    },
  );

  it('sends a company read again after answers that charged nothing: 429, 503, 500', async () => {
    const fake = new FakeFetch([
      envelope(429, 'rate_limited', 'rate_limit_error', {}, { 'retry-after': '1' }),
      envelope(503, 'internal_error', 'api_error', {}, { 'retry-after': '1' }),
      envelope(500, 'internal_error', 'api_error'),
      answer(200, { company: {} }, billingHeaders),
    ]);
    const { client } = clientWith(fake);
    const result = await client.companies.get('acme.example');
    expect(fake.sent).toHaveLength(4);
    expect(result.$response.attempts).toBe(4);
  });

  it.each([
    [400, 'invalid_request', 'invalid_request_error', InvalidRequestError, { param: 'limit' }],
    [400, 'unknown_filter', 'invalid_request_error', InvalidRequestError, { param: 'filters.titel_or' }],
    [401, 'unauthorized', 'authentication_error', AuthenticationError, {}],
    [
      402,
      'insufficient_credits',
      'billing_error',
      InsufficientCreditsError,
      { credits_needed: 5, upgrade_url: 'https://x.example/up' },
    ],
    [
      403,
      'plan_required',
      'permission_error',
      PermissionDeniedError,
      { required_plan: 'pro', upgrade_url: 'https://x.example/up' },
    ],
    [404, 'not_found', 'not_found_error', NotFoundError, {}],
    [409, 'idempotency_conflict', 'conflict_error', ConflictError, {}],
  ] as const)('never retries %d %s: throws its typed error at once', async (status, code, type, Class, extra) => {
    const fake = new FakeFetch([
      envelope(status, code, type, extra, {
        'retry-after': '1',
        'ratelimit-limit': '10',
        'ratelimit-remaining': '4',
        'ratelimit-reset': '9',
      }),
      answer(200, page),
    ]);
    const { client, waits } = clientWith(fake);
    const error = await caught(client.jobs.search(searchBody, { idempotencyKey: 'k' }));
    expect(fake.sent).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status,
      code,
      type,
      request_id: 'req_err1',
      message: `${code} happened`,
      idempotencyKey: 'k',
      attempts: 1,
      rateLimit: { limit: 10, remaining: 4, resetSeconds: 9 },
      ...extra,
    });
    expect((error as Error).name).toBe(Class.name);
  });

  it('gives up after maxRetries with the last typed error', async () => {
    const fake = new FakeFetch([], () => envelope(500, 'internal_error', 'api_error'));
    const { client, waits } = clientWith(fake, { maxRetries: 2 });
    const error = await caught(client.jobs.search(searchBody));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ attempts: 3, code: 'internal_error' });
    expect(waits).toHaveLength(2);
    expect(new Set(fake.sent.map((s) => s.headers['idempotency-key'])).size).toBe(1);
  });

  it('gives up after maxRetries network errors with an ApiConnectionError carrying the key', async () => {
    const fake = new FakeFetch([], () => ({ fail: new TypeError('connect ECONNREFUSED') }));
    const { client } = clientWith(fake, { maxRetries: 1 });
    const error = await caught(client.searches.create({ filters: {} }, { idempotencyKey: 'async-1' }));
    expect(error).toBeInstanceOf(ApiConnectionError);
    expect(error).toMatchObject({ attempts: 2, idempotencyKey: 'async-1' });
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('throws a 429 whose Retry-After is beyond maxRetryAfterMs without waiting', async () => {
    const fake = new FakeFetch([envelope(429, 'rate_limited', 'rate_limit_error', {}, { 'retry-after': '3600' })]);
    const { client, waits } = clientWith(fake);
    const error = await caught(client.account());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterSeconds: 3600, status: 429 });
    expect(waits).toEqual([]);
  });

  it("per-call maxRetries overrides the client's (0: no retry)", async () => {
    const fake = new FakeFetch([envelope(429, 'rate_limited', 'rate_limit_error', {}, { 'retry-after': '1' })]);
    const { client } = clientWith(fake);
    expect(await caught(client.account({ maxRetries: 0 }))).toBeInstanceOf(RateLimitError);
    expect(fake.sent).toHaveLength(1);
  });

  it('turns an answer without the envelope into a typed error by its status', async () => {
    const fake = new FakeFetch([
      answer(502, '<html>bad gateway</html>', { 'x-request-id': 'req_proxy' }),
      answer(418, 'teapot'),
    ]);
    const { client } = clientWith(fake, { maxRetries: 0 });
    // its doc_url is the section on the API's own documentation host
    expect(await caught(client.account())).toMatchObject({
      name: 'InternalServerError',
      status: 502,
      code: 'internal_error',
      type: 'api_error',
      request_id: 'req_proxy',
      doc_url: 'http://api.test/docs/errors#internal_error',
    });
    expect(await caught(client.account())).toMatchObject({
      name: 'InvalidRequestError',
      status: 418,
      code: 'invalid_request',
    });
  });

  it('a timed-out attempt is retried like a network error', async () => {
    let calls = 0;
    const client = new JobsClient({
      baseUrl: 'http://api.test',
      apiKey: LIVE,
      timeoutMs: 20,
      sleep: async () => undefined,
      fetch: (_url, init) =>
        new Promise((resolve, reject) => {
          calls += 1;
          if (calls === 2)
            return resolve({ status: 200, headers: { get: () => null }, text: async () => '{"plan":"pro"}' });
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true });
        }),
    });
    const account = await client.account();
    expect(account.plan).toBe('pro');
    expect(account.$response.attempts).toBe(2);
  });

  describe('a DELETE retried after a lost answer', () => {
    const notFound = () => envelope(404, 'not_found', 'not_found_error');

    it.each([
      ['a network error', { fail: new TypeError('socket hang up') }],
      [
        'a timed-out attempt',
        { fail: Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' }) },
      ],
      ['a 500', envelope(500, 'internal_error', 'api_error')],
      ["a proxy's 502", answer(502, '<html>bad gateway</html>')],
      ["a proxy's 504", answer(504, '<html>gateway timeout</html>')],
    ] as const)("treats the retry's 404 after %s as deleted: the first attempt did it", async (_what, first) => {
      const fake = new FakeFetch([first, notFound()]);
      const { client } = clientWith(fake);
      const info = await client.watches.delete('wat_1');
      expect(fake.sent.map((s) => s.method)).toEqual(['DELETE', 'DELETE']);
      expect(info).toMatchObject({ status: 404, attempts: 2, idempotencyKey: null });
    });

    it('still counts an earlier lost answer when attempts in between were refused', async () => {
      const fake = new FakeFetch([
        { fail: new TypeError('socket hang up') },
        envelope(429, 'rate_limited', 'rate_limit_error', {}, { 'retry-after': '1' }),
        notFound(),
      ]);
      const { client } = clientWith(fake);
      expect(await client.watches.delete('wat_1')).toMatchObject({ status: 404, attempts: 3 });
    });

    it('keeps a first-attempt 404 a NotFoundError: nothing was deleted', async () => {
      const fake = new FakeFetch([notFound(), answer(204)]);
      const { client } = clientWith(fake);
      expect(await caught(client.watches.delete('wat_missing'))).toMatchObject({
        name: 'NotFoundError',
        status: 404,
        attempts: 1,
      });
      expect(fake.sent).toHaveLength(1);
    });

    it('keeps the 404 an error after a 429: a refused attempt deleted nothing', async () => {
      const fake = new FakeFetch([
        envelope(429, 'rate_limited', 'rate_limit_error', {}, { 'retry-after': '1' }),
        notFound(),
      ]);
      const { client } = clientWith(fake);
      const error = await caught(client.watches.delete('wat_missing'));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ attempts: 2 });
    });

    it("applies to DELETE only: a GET's 404 after a network error is still not found", async () => {
      const fake = new FakeFetch([{ fail: new TypeError('socket hang up') }, notFound()]);
      const { client } = clientWith(fake);
      expect(await caught(client.jobs.get('job_missing'))).toBeInstanceOf(NotFoundError);
      expect(fake.sent).toHaveLength(2);
    });
  });

  it('stops at once when the caller aborts, also during a wait', async () => {
    const fake = new FakeFetch([], () =>
      envelope(429, 'rate_limited', 'rate_limit_error', {}, { 'retry-after': '30' }),
    );
    const controller = new AbortController();
    const client = new JobsClient({ baseUrl: 'http://api.test', apiKey: LIVE, fetch: fake.fetch });
    const pending = client.account({ signal: controller.signal });
    await new Promise((r) => setTimeout(r, 10));
    controller.abort(new Error('caller gave up'));
    expect(await caught(pending)).toMatchObject({ message: 'caller gave up' });
    expect(fake.sent).toHaveLength(1);
  });
});
