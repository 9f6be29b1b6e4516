import { Redis } from 'ioredis';
import {
  ErrorEnvelopeSchema,
  WebhookEndpointListResponseSchema,
  WebhookEndpointRotatedSchema,
  WebhookEndpointSecretSchema,
  type WebhookEndpoint,
} from '@jobs/contracts';
import { api, createAccount, Receiver, signatureValid, uniqueWord } from './stack.js';

/**
 * `/v1/webhook_endpoints`: a customer's own webhook URLs and signing secrets. What the client's
 * e2e test does not: refusals in the error envelope, Idempotency-Key on the two POSTs (a retried
 * rotation answers the same secret, and Redis keeps that answer sealed), the rate limit, paging
 * across the URLs watches use and the URLs that only have a secret, and test mode (a test key's
 * deliveries are signed with its own test secret).
 */
const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379/0', {
  lazyConnect: true,
  maxRetriesPerRequest: 2,
});
const receiver = new Receiver();

beforeAll(async () => {
  await redis.connect();
  await receiver.start();
});
afterAll(async () => {
  redis.disconnect();
  await receiver.stop();
});

const error = (res: { body: unknown }) => ErrorEnvelopeSchema.parse(res.body).error;

async function allEndpoints(key: string): Promise<{ endpoints: WebhookEndpoint[]; pages: number }> {
  const endpoints: WebhookEndpoint[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await api(`/v1/webhook_endpoints${cursor ? `?cursor=${cursor}` : ''}`, { key });
    expect(res.status).toBe(200);
    const page = WebhookEndpointListResponseSchema.parse(res.body);
    endpoints.push(...page.data);
    cursor = page.next_cursor;
    pages += 1;
  } while (cursor && pages < 20);
  return { endpoints, pages };
}

describe('/v1/webhook_endpoints', () => {
  it(
    'refuses bad input with the error envelope: a missing or ' +
      'malformed url, an unknown field, an overlap out of range, an ' +
      'overlong URL',
    async () => {
      const { live_key: key } = await createAccount({ plan: 'pro', credits: 10 });
      for (const body of [{}, { url: 'not-a-url' }, { url: 'ftp://files.example.com/x' }]) {
        const res = await api('/v1/webhook_endpoints/secret', { key, body });
        expect(res.status).toBe(400);
        expect(error(res)).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request', param: 'url' });
      }
      const unknown = await api('/v1/webhook_endpoints/secret', {
        key,
        body: { url: 'https://hooks.example.com/a', mode: 'live' },
      });
      expect(unknown.status).toBe(400);
      expect(error(unknown).code).toBe('invalid_request');
      const overlong = await api('/v1/webhook_endpoints/secret', {
        key,
        body: { url: `https://hooks.example.com/${'a'.repeat(2100)}` },
      });
      expect(overlong.status).toBe(400);
      expect(error(overlong)).toMatchObject({ param: 'url', message: expect.stringContaining('2048') });
      for (const previous_expires_in_seconds of [-1, 604_801, 1.5]) {
        const res = await api('/v1/webhook_endpoints/secret/rotate', {
          key,
          body: { url: 'https://hooks.example.com/a', previous_expires_in_seconds },
        });
        expect(res.status).toBe(400);
        expect(error(res)).toMatchObject({ code: 'invalid_request', param: 'previous_expires_in_seconds' });
      }
      const cursor = await api('/v1/webhook_endpoints?cursor=cur_forged', { key });
      expect(cursor.status).toBe(400);
      expect(error(cursor).param).toBe('cursor');
      expect((await api('/v1/webhook_endpoints/secret', { body: { url: 'https://hooks.example.com/a' } })).status).toBe(
        401,
      );
    },
  );

  it(
    'answers a retried rotation with the same Idempotency-Key ' +
      'with the same new secret, once, kept sealed in Redis; ' +
      'another body is a 409',
    async () => {
      const { account_id, live_key: key } = await createAccount({ plan: 'pro', credits: 10 });
      const url = 'https://hooks.example.com/idempotent';
      const before = WebhookEndpointSecretSchema.parse(
        (await api('/v1/webhook_endpoints/secret', { key, body: { url } })).body,
      ).secret;
      const headers = { 'Idempotency-Key': `rotate-${uniqueWord()}` };
      const first = await api('/v1/webhook_endpoints/secret/rotate', { key, body: { url }, headers });
      const again = await api('/v1/webhook_endpoints/secret/rotate', { key, body: { url }, headers });
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const rotated = WebhookEndpointRotatedSchema.parse(first.body);
      expect(again.body).toEqual(first.body);
      expect(rotated.secret).not.toBe(before);
      // rotated once: the secret now is the one answered, and the one before it still overlaps (a second rotation would
      // have dropped it)
      expect(
        WebhookEndpointSecretSchema.parse((await api('/v1/webhook_endpoints/secret', { key, body: { url } })).body)
          .secret,
      ).toBe(rotated.secret);
      const listed = (await allEndpoints(key)).endpoints.find((e) => e.url === url)!;
      expect(listed.previous_secret_expires_at).toBe(rotated.previous_expires_at);

      // nothing of the secret in the account's idempotency records
      const records = await redis.keys(`gateway:idem:${account_id}:*`);
      const values = await Promise.all(records.map(async (record) => (await redis.get(record)) ?? ''));
      // the rotation's record, its answer sealed
      expect(values.filter((value) => value.includes('"sealed":true') && value.includes('whenc1.'))).toHaveLength(1);
      for (const value of values) {
        expect(value).not.toContain(rotated.secret);
        expect(value).not.toContain(rotated.secret.slice(6, 30));
      }

      const conflict = await api('/v1/webhook_endpoints/secret/rotate', {
        key,
        body: { url, previous_expires_in_seconds: 0 },
        headers,
      });
      expect(conflict.status).toBe(409);
      expect(error(conflict).code).toBe('idempotency_conflict');
    },
  );

  it('answers a keyed retry whose first answer was lost with the rotation made, not a second one', async () => {
    const { account_id, live_key: key } = await createAccount({ plan: 'pro', credits: 10 });
    const url = 'https://hooks.example.com/lost-answer';
    await api('/v1/webhook_endpoints/secret', { key, body: { url } });
    const headers = { 'Idempotency-Key': `rotate-${uniqueWord()}` };
    const first = await api('/v1/webhook_endpoints/secret/rotate', { key, body: { url }, headers });
    expect(first.status).toBe(200);
    const rotated = WebhookEndpointRotatedSchema.parse(first.body);
    // as after a 500: the dispatcher rotated, the gateway kept the key as failed, the retry runs again
    const records = await redis.keys(`gateway:idem:${account_id}:*`);
    expect(records).toHaveLength(1);
    const record = JSON.parse((await redis.get(records[0]!))!) as Record<string, unknown>;
    delete record['response'];
    await redis.set(records[0]!, JSON.stringify({ ...record, state: 'failed' }), 'KEEPTTL');

    const retry = await api('/v1/webhook_endpoints/secret/rotate', { key, body: { url }, headers });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(WebhookEndpointRotatedSchema.parse(retry.body)).toEqual(rotated);
    const current = WebhookEndpointSecretSchema.parse(
      (await api('/v1/webhook_endpoints/secret', { key, body: { url } })).body,
    );
    expect(current.secret).toBe(rotated.secret);

    // another key is another rotation
    const other = await api('/v1/webhook_endpoints/secret/rotate', {
      key,
      body: { url },
      headers: { 'Idempotency-Key': `rotate-${uniqueWord()}` },
    });
    expect(WebhookEndpointRotatedSchema.parse(other.body).secret).not.toBe(rotated.secret);
  });

  it('counts against the rate limit like any route: 429 with Retry-After beyond it', async () => {
    const { live_key: key } = await createAccount({
      plan: 'pro',
      credits: 10,
      rate_limit: { limit: 3, window_seconds: 60 },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (await api('/v1/webhook_endpoints/secret', { key, body: { url: `https://hooks.example.com/${i}` } })).status,
      );
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await api('/v1/webhook_endpoints', { key });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(error(refused).code).toBe('rate_limited');
  });

  it(
    'pages every endpoint once: the URLs watches deliver to and ' +
      'those that only have a secret, each with its users',
    async () => {
      const { live_key: key } = await createAccount({ plan: 'pro', credits: 10 });
      // 103 URLs with a secret only, 3 used by watches (one of them by two, and with a secret too)
      const secretOnly = Array.from({ length: 103 }, (_, i) => `https://hooks-${i}.example.com/jobs`);
      for (const url of secretOnly)
        expect((await api('/v1/webhook_endpoints/secret', { key, body: { url } })).status).toBe(200);
      const watched = [receiver.endpoint(), receiver.endpoint(), receiver.endpoint()];
      const watchIds: string[][] = [[], [], []];
      for (const [i, url] of [watched[0], watched[1], watched[2], watched[0]].entries()) {
        const res = await api('/v1/watches', {
          key,
          body: { type: 'company', domain: `${uniqueWord()}.example`, webhook_url: url },
        });
        expect(res.status).toBe(201);
        watchIds[i % 3]!.push(String(res.body!['id']));
      }
      await api('/v1/webhook_endpoints/secret', { key, body: { url: watched[2] } });

      const { endpoints, pages } = await allEndpoints(key);
      expect(pages).toBe(2);
      expect(endpoints.map((e) => e.url).sort()).toEqual([...secretOnly, ...watched].sort());
      const byUrl = new Map(endpoints.map((e) => [e.url, e]));
      expect(byUrl.get(watched[0]!)).toMatchObject({
        secret_hint: null,
        secret_created_at: null,
        used_by: { watches: 2, async_searches: 0 },
      });
      expect(byUrl.get(watched[0]!)!.used_by.watch_ids.sort()).toEqual(watchIds[0]!.sort());
      expect(byUrl.get(watched[2]!)).toMatchObject({
        secret_hint: expect.stringMatching(/^whsec_….{4}$/),
        used_by: { watches: 1, watch_ids: watchIds[2] },
      });
      expect(byUrl.get(secretOnly[0]!)).toMatchObject({
        secret_hint: expect.stringMatching(/^whsec_….{4}$/),
        used_by: { watches: 0, watch_ids: [], async_searches: 0, async_search_ids: [] },
      });
      for (const id of watchIds.flat()) await api(`/v1/watches/${id}`, { key, method: 'DELETE' });
    },
  );

  it(
    "gives a test key its own endpoints: its async search's " +
      'delivery is signed with its test secret, never with the live ' +
      'one of the same URL',
    async () => {
      const { live_key, test_key } = await createAccount({ plan: 'pro', credits: 10 });
      const url = receiver.endpoint();
      const live = WebhookEndpointSecretSchema.parse(
        (await api('/v1/webhook_endpoints/secret', { key: live_key, body: { url } })).body,
      ).secret;
      const test = WebhookEndpointSecretSchema.parse(
        (await api('/v1/webhook_endpoints/secret', { key: test_key, body: { url } })).body,
      ).secret;
      expect(test).not.toBe(live);

      const search = await api('/v1/searches', {
        key: test_key,
        body: { filters: { title_or: ['engineer'] }, limit: 5, webhook_url: url },
      });
      expect(search.status).toBe(202);
      const [arrival] = await receiver.waitFor(url, 1, 120_000);
      expect(signatureValid(arrival!.headers['service-signature'], arrival!.raw, test)).toBe(true);
      expect(signatureValid(arrival!.headers['service-signature'], arrival!.raw, live)).toBe(false);

      // each key lists its own: the test key sees its search, the live key nothing using the URL
      const testListed = (await allEndpoints(test_key)).endpoints.find((e) => e.url === url)!;
      expect(testListed.used_by).toMatchObject({ async_searches: 1, async_search_ids: [String(search.body!['id'])] });
      expect(testListed.secret_hint).toBe(`whsec_…${test.slice(-4)}`);
      const liveListed = (await allEndpoints(live_key)).endpoints.find((e) => e.url === url)!;
      expect(liveListed).toMatchObject({
        secret_hint: `whsec_…${live.slice(-4)}`,
        used_by: { async_searches: 0, watches: 0 },
      });

      // rotating the test secret leaves the live one alone
      await api('/v1/webhook_endpoints/secret/rotate', {
        key: test_key,
        body: { url, previous_expires_in_seconds: 0 },
      });
      expect(
        WebhookEndpointSecretSchema.parse(
          (await api('/v1/webhook_endpoints/secret', { key: live_key, body: { url } })).body,
        ).secret,
      ).toBe(live);
    },
  );
});
