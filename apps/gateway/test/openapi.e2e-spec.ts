import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { fromAddress } from './client-address.js';
import { api, createAccount, stack } from './stack.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, unknown>;
interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * The OpenAPI document served by the running gateway describes what the
 * gateway really answers. Every implemented endpoint's real responses are validated against
 * the document's schema and headers for that path and status, so code and document cannot
 * drift apart unnoticed.
 */
describe('GET /openapi.yaml', () => {
  let document: Json;
  let ajv: Ajv2020;
  let keys: { live_key: string; test_key: string };

  beforeAll(async () => {
    const res = await fetch(`${stack.baseUrl}/openapi.yaml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/yaml/);
    document = parse(await res.text()) as Json;
    ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addSchema({ ...document, $id: 'openapi.json' });
    keys = await createAccount({ plan: 'pro', credits: 1000 });
  });

  const pointer = (...segments: string[]) =>
    segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

  function resolve(node: Json): Json {
    const ref = node['$ref'];
    if (typeof ref !== 'string') return node;
    let target: unknown = document;
    for (const segment of ref.replace(/^#\//, '').split('/'))
      target = (target as Json)[segment.replaceAll('~1', '/').replaceAll('~0', '~')];
    return target as Json;
  }

  /** The problems of a real response against the document's description of `method path` at its status. */
  function problems(method: string, path: string, res: ApiResponse): string[] {
    const operation = ((document['paths'] as Json)[path] as Json | undefined)?.[method] as Json | undefined;
    if (!operation) return [`${method.toUpperCase()} ${path} is not in the document`];
    const responses = operation['responses'] as Json;
    if (!responses[String(res.status)])
      return [`status ${res.status} is not documented for ${method.toUpperCase()} ${path}`];
    const response = resolve(responses[String(res.status)] as Json);
    const found: string[] = [];
    for (const [name, header] of Object.entries((response['headers'] ?? {}) as Json)) {
      const spec = resolve(header as Json);
      const value = res.headers.get(name);
      if (value === null) {
        if (spec['required'] === true) found.push(`header ${name} is missing`);
        continue;
      }
      const schema = spec['schema'] as Json;
      const typed = schema['type'] === 'integer' ? (/^-?\d+$/.test(value) ? Number(value) : value) : value;
      if (!ajv.validate(schema, typed)) found.push(`header ${name}: ${value} ${ajv.errorsText()}`);
    }
    const content = response['content'] as Json | undefined;
    if (!content) {
      if (res.body !== null) found.push('a body where the document says none');
      return found;
    }
    const responseRef =
      typeof (responses[String(res.status)] as Json)['$ref'] === 'string'
        ? `openapi.json${String((responses[String(res.status)] as Json)['$ref'])}`
        : `openapi.json#/${pointer('paths', path, method, 'responses', String(res.status))}`;
    const validate = ajv.getSchema(`${responseRef}/content/application~1json/schema`);
    if (!validate) return [...found, 'no JSON schema for this response'];
    if (!validate(res.body)) found.push(`body: ${ajv.errorsText(validate.errors)}`);
    return found;
  }

  it('is a valid OpenAPI 3.1 document served without a key, with the server /v1', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(validator.version).toBe('3.1');
    expect(document['servers']).toEqual([expect.objectContaining({ url: '/v1' })]);
    const operations = Object.values(document['paths'] as Record<string, Json>).flatMap((item) => Object.keys(item));
    expect(operations).toHaveLength(17); // every endpoint of interface.md, and the three webhook endpoint routes
  });

  it('describes the sync search: live key, test key and a 400', async () => {
    const body = { filters: { title_or: ['engineer'] }, waterfall: { providers: ['own_index'] }, limit: 5 };
    const live = await api('/v1/jobs/search', { key: keys.live_key, body });
    expect(live.status).toBe(200);
    expect(problems('post', '/jobs/search', live)).toEqual([]);
    const test = await api('/v1/jobs/search', { key: keys.test_key, body });
    expect(test.status).toBe(200);
    expect(problems('post', '/jobs/search', test)).toEqual([]);
    const bad = await api('/v1/jobs/search', { key: keys.live_key, body: { filters: { titel_or: ['x'] } } });
    expect(bad.status).toBe(400);
    expect(problems('post', '/jobs/search', bad)).toEqual([]);
  });

  // The sandbox is rate limited per client address: these calls come from addresses of their own.
  const sandbox = fromAddress('127.0.0.43');

  it('describes the sandbox: a page, a dry run, a 400 and a 429', async () => {
    const res = await sandbox('/v1/sandbox/jobs/search', { body: { filters: { include_closed: true }, limit: 50 } });
    expect(res.status).toBe(200);
    expect(problems('post', '/sandbox/jobs/search', res)).toEqual([]);
    const dry = await sandbox('/v1/sandbox/jobs/search', { body: { dry_run: true } });
    expect(dry.status).toBe(200);
    expect(problems('post', '/sandbox/jobs/search', dry)).toEqual([]);
    const bad = await sandbox('/v1/sandbox/jobs/search', { body: { limit: 0 } });
    expect(bad.status).toBe(400);
    expect(problems('post', '/sandbox/jobs/search', bad)).toEqual([]);

    const flood = fromAddress('127.0.0.44');
    let limited: ApiResponse | undefined;
    for (let i = 0; i < 1000 && !limited; i++) {
      const attempt = await flood('/v1/sandbox/jobs/search', { body: { limit: 1 } });
      if (attempt.status === 429) limited = attempt;
    }
    expect(limited).toBeDefined();
    expect(problems('post', '/sandbox/jobs/search', limited!)).toEqual([]);
  });

  it('describes the account, a 401 and a 404', async () => {
    const account = await api('/v1/account', { key: keys.live_key });
    expect(account.status).toBe(200);
    expect(problems('get', '/account', account)).toEqual([]);
    const anonymous = await api('/v1/account');
    expect(anonymous.status).toBe(401);
    expect(problems('get', '/account', anonymous)).toEqual([]);
    const missing = await api('/v1/jobs/job_doesnotexist000', { key: keys.live_key });
    expect(missing.status).toBe(404);
    expect(problems('get', '/jobs/{id}', missing)).toEqual([]);
  });

  it('describes the other implemented reads: a job, the ledger and the providers', async () => {
    const search = await api('/v1/jobs/search', {
      key: keys.live_key,
      body: { waterfall: { providers: ['own_index'] }, limit: 1 },
    });
    const jobId = (search.body as { data: { id: string }[] }).data[0]?.id;
    expect(jobId).toMatch(/^job_/);
    const job = await api(`/v1/jobs/${jobId}`, { key: keys.live_key });
    expect(job.status).toBe(200);
    expect(problems('get', '/jobs/{id}', job)).toEqual([]);
    const ledger = await api('/v1/billing/ledger', { key: keys.live_key });
    expect(ledger.status).toBe(200);
    expect(problems('get', '/billing/ledger', ledger)).toEqual([]);
    const providers = await api('/v1/providers', { key: keys.live_key });
    expect(providers.status).toBe(200);
    expect(problems('get', '/providers', providers)).toEqual([]);
  });

  it('describes the webhook endpoint routes: a secret, a rotation, the list and a 400', async () => {
    const url = `https://hooks-${Date.now()}.example.com/jobs`;
    const secret = await api('/v1/webhook_endpoints/secret', { key: keys.live_key, body: { url } });
    expect(secret.status).toBe(200);
    expect(problems('post', '/webhook_endpoints/secret', secret)).toEqual([]);
    const rotated = await api('/v1/webhook_endpoints/secret/rotate', {
      key: keys.live_key,
      body: { url, previous_expires_in_seconds: 60 },
    });
    expect(rotated.status).toBe(200);
    expect(problems('post', '/webhook_endpoints/secret/rotate', rotated)).toEqual([]);
    const list = await api('/v1/webhook_endpoints', { key: keys.live_key });
    expect(list.status).toBe(200);
    expect(problems('get', '/webhook_endpoints', list)).toEqual([]);
    const bad = await api('/v1/webhook_endpoints/secret', { key: keys.live_key, body: { url: 'not-a-url' } });
    expect(bad.status).toBe(400);
    expect(problems('post', '/webhook_endpoints/secret', bad)).toEqual([]);
  });

  it('catches drift: an altered body, a missing header or an undocumented status fails', async () => {
    const res = await sandbox('/v1/sandbox/jobs/search', { body: { limit: 1 } });
    const body = res.body as { data: Json[] };
    const altered = { ...res, body: { ...body, data: [{ ...body.data[0], title: undefined, salary_usd: 1 }] } };
    expect(problems('post', '/sandbox/jobs/search', altered).join()).toMatch(/body:/);
    const headers = new Headers(res.headers);
    headers.delete('x-request-id');
    expect(problems('post', '/sandbox/jobs/search', { ...res, headers })).toContain('header X-Request-Id is missing');
    expect(problems('post', '/sandbox/jobs/search', { ...res, status: 402 })).toEqual([
      'status 402 is not documented for POST /sandbox/jobs/search',
    ]);
  });
});
