import Fastify from 'fastify';
import { ErrorEnvelopeSchema } from '@jobs/contracts';
import { redactUrl } from '@jobs/observability';
import { installRequestContext } from '../http/request-context.hook.js';
import { generateApiKey } from './api-key.js';
import { installApiKeyInUrlRefusal } from './api-key-in-url.hook.js';
import { apiKeyInUrl } from './api-key-in-url.js';

const LIVE = generateApiKey('live');
const TEST = generateApiKey('test');
const LINKS = { publicBaseUrl: 'http://127.0.0.1:8080', pricingUrl: 'http://127.0.0.1:8080/docs/billing' };

describe('apiKeyInUrl', () => {
  it('names the query parameter that carries a key, whatever its name', () => {
    expect(apiKeyInUrl(`/v1/account?api_key=${LIVE}`)).toBe('api_key');
    expect(apiKeyInUrl(`/v1/account?limit=5&anything=${TEST}`)).toBe('anything');
    expect(apiKeyInUrl(`/v1/events?since=evt_1&x=Bearer%20${LIVE}`)).toBe('x');
    expect(apiKeyInUrl(`/mcp?token=${LIVE}`)).toBe('token');
  });

  it('reads percent-encoding, in names and values', () => {
    expect(apiKeyInUrl(`/v1/account?k=${LIVE.replace(/_/g, '%5F')}`)).toBe('k');
    expect(apiKeyInUrl(`/v1/account?a%20b=${encodeURIComponent(LIVE)}`)).toBe('a b');
  });

  it('never echoes a key used as a parameter name, and finds one in the path', () => {
    expect(apiKeyInUrl(`/v1/account?${LIVE}`)).toBe('query');
    expect(apiKeyInUrl(`/v1/account?${LIVE}=1`)).toBe('query');
    expect(apiKeyInUrl(`/v1/jobs/${LIVE}`)).toBe('path');
    expect(apiKeyInUrl(`/v1/companies/${TEST.replace('_', '%5f')}?x=1`)).toBe('path');
  });

  it('lets everything else through', () => {
    for (const url of [
      '/v1/account',
      '/v1/searches/srch_123?cursor=cur_abc&limit=10',
      '/v1/billing/ledger?job_id=job_123',
      '/docs/errors.md',
      '/v1/account?note=svc_live_',
      '/v1/jobs/job_1%20x',
    ])
      expect(apiKeyInUrl(url)).toBeNull();
  });

  it('finds every URL the gateway refuses redacted by telemetry (the two shapes agree)', () => {
    for (let i = 0; i < 50; i++) {
      const key = generateApiKey(i % 2 ? 'live' : 'test');
      for (const url of [`/v1/account?p${i}=${key}`, `/v1/jobs/${key}`, `/v1/account?${key}`]) {
        expect(apiKeyInUrl(url)).not.toBeNull();
        expect(redactUrl(url)).not.toContain(key);
      }
    }
  });
});

describe('the refusal on the public port', () => {
  async function server() {
    const fastify = Fastify();
    const handled: string[] = [];
    installRequestContext(fastify);
    installApiKeyInUrlRefusal(fastify, LINKS);
    fastify.get('/v1/account', async (request) => {
      handled.push(request.url);
      return { ok: true };
    });
    await fastify.ready();
    return { fastify, handled };
  }

  it('answers 400 invalid_request naming the parameter, before any handler, with the request id', async () => {
    const { fastify, handled } = await server();
    const res = await fastify.inject({
      url: `/v1/account?api_key=${LIVE}`,
      headers: { authorization: `Bearer ${LIVE}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const { error } = ErrorEnvelopeSchema.parse(res.json());
    expect(error).toMatchObject({
      code: 'invalid_request',
      type: 'invalid_request_error',
      param: 'api_key',
      request_id: res.headers['x-request-id'],
    });
    expect(error.message).toContain('Authorization header');
    expect(res.body).not.toContain(LIVE);
    expect(handled).toEqual([]);
    await fastify.close();
  });

  it('refuses a key in the path, and lets a clean request through', async () => {
    const { fastify, handled } = await server();
    const inPath = await fastify.inject({ url: `/v1/jobs/${TEST}` });
    expect(inPath.statusCode).toBe(400);
    expect(inPath.json()).toMatchObject({ error: { code: 'invalid_request', param: 'path' } });
    expect((await fastify.inject({ url: '/v1/account?limit=5' })).statusCode).toBe(200);
    expect(handled).toEqual(['/v1/account?limit=5']);
    await fastify.close();
  });
});
