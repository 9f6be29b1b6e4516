import { randomUUID } from 'node:crypto';
import {
  AccountSchema,
  AdminAccountCreateResponseSchema,
  AdminProviderSettingsSchema,
  AdminWebhookSecretResponseSchema,
  ErrorEnvelopeSchema,
  JobSearchResponseSchema,
  ProviderListResponseSchema,
} from '@jobs/contracts';
import { api, createAccount, refreshPass, stack } from './stack.js';

/** One call to the admin API; `token: null` sends none. */
async function admin(
  method: string,
  path: string,
  init: { body?: unknown; rawBody?: string; token?: string | null } = {},
) {
  const token = init.token === undefined ? stack.adminToken : init.token;
  const res = await fetch(`${stack.adminUrl}/admin${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(init.body === undefined && init.rawBody === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

type Answer = Awaited<ReturnType<typeof admin>>;

/** The public error envelope, its request id equal to the X-Request-Id header. */
function expectError(res: Answer, status: number, code: string, param?: string): void {
  expect({ status: res.status, code: (res.body?.['error'] as { code?: string } | undefined)?.code }).toEqual({
    status,
    code,
  });
  const envelope = ErrorEnvelopeSchema.parse(res.body);
  expect(envelope.error.request_id).toBe(res.headers.get('x-request-id'));
  if (param !== undefined) expect(envelope.error.param).toBe(param);
}

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const unique = () => randomUUID().replace(/-/g, '').slice(0, 10);

describe('admin API: the door', () => {
  it.each([
    ['POST', '/accounts', { plan: 'pro', credits: 1 }],
    ['POST', '/accounts/acc_x/credits', { amount: 1 }],
    ['POST', '/accounts/acc_x/keys', { mode: 'live' }],
    ['GET', '/accounts/acc_x/webhook-secret?url=https://example.com/h', undefined],
    ['DELETE', '/keys/svc_live_00000000000000000000000000000000', undefined],
    ['PUT', '/providers/provider_a', { status: 'down' }],
    ['POST', '/providers/reset', undefined],
    ['POST', '/world/companies', { domain: 'x.example', name: 'X' }],
    ['POST', '/world/jobs', { company_domain: 'x.example', title: 'T', providers: ['own_index'] }],
    ['PATCH', '/world/jobs/w1', { title: 'T' }],
    ['POST', '/world/jobs/w1/close', { reason: 'filled' }],
    ['POST', '/world/jobs/w1/repost', undefined],
    ['POST', '/refresh', undefined],
  ])('%s %s answers 401 in the envelope without the token and with a wrong one', async (method, path, body) => {
    expectError(await admin(method, path, { body, token: null }), 401, 'unauthorized');
    expectError(await admin(method, path, { body, token: `${stack.adminToken}x` }), 401, 'unauthorized');
    expectError(
      await admin(method, path, { body, token: 'svc_live_00000000000000000000000000000000' }),
      401,
      'unauthorized',
    );
  });

  it('does not change anything for a caller without the token', async () => {
    await admin('PUT', '/providers/provider_b', { body: { status: 'down' }, token: 'nope' });
    const list = await admin('GET', '/providers');
    expect(
      (list.body?.['data'] as { slug: string; status: string }[]).find((p) => p.slug === 'provider_b')?.status,
    ).toBe('operational');
  });

  it('is not served on the public port', async () => {
    const res = await api('/admin/accounts', {
      body: { plan: 'pro', credits: 1 },
      headers: { authorization: `Bearer ${stack.adminToken}` },
    });
    expect(res.status).toBe(404);
  });
});

describe('admin API: accounts and keys', () => {
  it('creates an account (rate_limit optional) that the public API knows', async () => {
    const res = await admin('POST', '/accounts', {
      body: { plan: 'growth', credits: 25, rate_limit: { limit: 40, window_seconds: 30 } },
    });
    expect(res.status).toBe(201);
    const created = AdminAccountCreateResponseSchema.parse(res.body);
    const account = AccountSchema.parse((await api('/v1/account', { key: created.live_key })).body);
    expect(account).toMatchObject({
      plan: 'growth',
      credits_remaining: 25,
      rate_limit: { limit: 40, window_seconds: 30 },
    });

    const plain = await admin('POST', '/accounts', { body: { plan: 'starter', credits: 0 } });
    expect(plain.status).toBe(201);
    const starter = AccountSchema.parse(
      (await api('/v1/account', { key: AdminAccountCreateResponseSchema.parse(plain.body).live_key })).body,
    );
    expect(starter.credits_remaining).toBe(0);
    expect(starter.rate_limit.limit).toBeGreaterThan(0);
  });

  it.each([
    [{ plan: 'gold', credits: 1 }, 'plan'],
    [{ plan: 'pro' }, 'credits'],
    [{ plan: 'pro', credits: -1 }, 'credits'],
    [{ plan: 'pro', credits: 1.5 }, 'credits'],
    [{ plan: 'pro', credits: 3_000_000_000 }, 'credits'],
    [{ plan: 'pro', credits: 1, rate_limit: { limit: 10 } }, 'rate_limit.window_seconds'],
    [{ plan: 'pro', credits: 1, name: 'x' }, 'name'],
  ])('refuses account %j with 400 invalid_request, param %s', async (body, param) => {
    expectError(await admin('POST', '/accounts', { body }), 400, 'invalid_request', param);
  });

  it('refuses a body that is not JSON', async () => {
    expectError(await admin('POST', '/accounts', { rawBody: '{"plan":' }), 400, 'invalid_request', 'body');
  });

  it('tops up credits, and GET /v1/account shows them', async () => {
    const { account_id, live_key } = await createAccount({ plan: 'pro', credits: 10 });
    const res = await admin('POST', `/accounts/${account_id}/credits`, { body: { amount: 15 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ credits_remaining: 25 });
    expect(AccountSchema.parse((await api('/v1/account', { key: live_key })).body).credits_remaining).toBe(25);

    for (const amount of [0, -3, 2.5, '5'])
      expectError(
        await admin('POST', `/accounts/${account_id}/credits`, { body: { amount } }),
        400,
        'invalid_request',
        'amount',
      );
    expectError(
      await admin('POST', `/accounts/${account_id}/credits`, { body: { amount: 2_147_483_640 } }),
      400,
      'invalid_request',
      'amount',
    );
    expectError(await admin('POST', '/accounts/acc_doesnotexist/credits', { body: { amount: 5 } }), 404, 'not_found');
    expect(AccountSchema.parse((await api('/v1/account', { key: live_key })).body).credits_remaining).toBe(25);
  });

  it('issues keys beside the old ones and revokes one at once, everywhere', async () => {
    const { account_id, live_key } = await createAccount({ plan: 'pro', credits: 10 });
    const issued = await admin('POST', `/accounts/${account_id}/keys`, { body: { mode: 'live' } });
    expect(issued.status).toBe(201);
    const key = (issued.body as { key: string }).key;
    expect(key).toMatch(/^svc_live_[0-9a-z]{32}$/);
    const test = await admin('POST', `/accounts/${account_id}/keys`, { body: { mode: 'test' } });
    expect((test.body as { key: string }).key).toMatch(/^svc_test_/);

    expect((await api('/v1/account', { key })).status).toBe(200);
    expect((await api('/v1/account', { key: live_key })).status).toBe(200);

    const revoked = await admin('DELETE', `/keys/${key}`);
    expect(revoked.status).toBe(204);
    expect(revoked.body).toBeNull();
    // At once: the key was used a moment ago (and is cached), yet the very next request fails.
    for (const path of ['/v1/account', '/v1/providers']) {
      const res = await api(path, { key });
      expect(res.status).toBe(401);
      expect(ErrorEnvelopeSchema.parse(res.body).error.code).toBe('unauthorized');
    }
    expect((await api('/v1/jobs/search', { key, body: { filters: {}, limit: 1 } })).status).toBe(401);
    // The account's other key is untouched; revoking twice is harmless.
    expect((await api('/v1/account', { key: live_key })).status).toBe(200);
    expect((await admin('DELETE', `/keys/${key}`)).status).toBe(204);
  });

  it('answers 404 for an unknown account or key and 400 for a bad mode', async () => {
    expectError(await admin('POST', '/accounts/acc_doesnotexist/keys', { body: { mode: 'live' } }), 404, 'not_found');
    expectError(await admin('DELETE', '/keys/svc_live_00000000000000000000000000000000'), 404, 'not_found');
    const { account_id } = await createAccount({ plan: 'pro', credits: 1 });
    expectError(
      await admin('POST', `/accounts/${account_id}/keys`, { body: { mode: 'prod' } }),
      400,
      'invalid_request',
      'mode',
    );
    expectError(await admin('POST', `/accounts/${account_id}/keys`, { body: {} }), 400, 'invalid_request', 'mode');
  });
});

describe('admin API: webhook secrets', () => {
  it('makes one secret per account and endpoint, stable across calls', async () => {
    const a = await createAccount({ plan: 'pro', credits: 1 });
    const b = await createAccount({ plan: 'pro', credits: 1 });
    const url = `https://hooks.example.com/${unique()}?x=1`;
    const other = `https://hooks.example.com/${unique()}`;
    const secret = async (accountId: string, endpoint: string) => {
      const res = await admin('GET', `/accounts/${accountId}/webhook-secret?url=${encodeURIComponent(endpoint)}`);
      expect(res.status).toBe(200);
      const body = AdminWebhookSecretResponseSchema.parse(res.body);
      expect(body.url).toBe(endpoint);
      expect(body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      return body.secret;
    };
    const first = await Promise.all([secret(a.account_id, url), secret(a.account_id, url), secret(a.account_id, url)]);
    expect(new Set(first).size).toBe(1);
    expect(await secret(a.account_id, url)).toBe(first[0]);
    const all = [
      first[0],
      await secret(a.account_id, other),
      await secret(b.account_id, url),
      await secret(b.account_id, other),
    ];
    expect(new Set(all).size).toBe(4);
  });

  it('refuses a missing or bad url with param url, and an unknown account with 404', async () => {
    const { account_id } = await createAccount({ plan: 'pro', credits: 1 });
    expectError(await admin('GET', `/accounts/${account_id}/webhook-secret`), 400, 'invalid_request', 'url');
    expectError(
      await admin('GET', `/accounts/${account_id}/webhook-secret?url=not-a-url`),
      400,
      'invalid_request',
      'url',
    );
    expectError(
      await admin(
        'GET',
        `/accounts/${account_id}/webhook-secret?url=${encodeURIComponent(`https://x.example/${'a'.repeat(2100)}`)}`,
      ),
      400,
      'invalid_request',
      'url',
    );
    expectError(
      await admin('GET', `/accounts/acc_doesnotexist/webhook-secret?url=${encodeURIComponent('https://x.example/h')}`),
      404,
      'not_found',
    );
  });
});

describe('admin API: providers', () => {
  let key: string;
  beforeAll(async () => {
    key = (await createAccount({ plan: 'pro', credits: 1 })).live_key;
  });
  afterAll(async () => {
    await admin('POST', '/providers/reset');
  });

  const settingsOf = async (slug: string) => {
    const res = await admin('GET', '/providers');
    expect(res.status).toBe(200);
    return (res.body?.['data'] as unknown[])
      .map((p) => AdminProviderSettingsSchema.parse(p))
      .find((p) => p.slug === slug);
  };
  const publicStatus = async (slug: string) =>
    ProviderListResponseSchema.parse((await api('/v1/providers', { key })).body).data.find((p) => p.slug === slug)
      ?.status;

  it('changes latency, failure mode and status, answers the new settings, and shows them', async () => {
    const latency = await admin('PUT', '/providers/provider_c', { body: { latency_ms: 700 } });
    expect(latency.status).toBe(200);
    expect(AdminProviderSettingsSchema.parse(latency.body)).toEqual({
      slug: 'provider_c',
      latency_ms: 700,
      fail: 'none',
      status: 'operational',
    });

    const fail = await admin('PUT', '/providers/provider_c', { body: { fail: 'timeout' } });
    expect(fail.body).toEqual({ slug: 'provider_c', latency_ms: 700, fail: 'timeout', status: 'operational' });

    const status = await admin('PUT', '/providers/provider_c', { body: { status: 'degraded', fail: 'none' } });
    expect(status.body).toEqual({ slug: 'provider_c', latency_ms: 700, fail: 'none', status: 'degraded' });
    expect(await settingsOf('provider_c')).toEqual({
      slug: 'provider_c',
      latency_ms: 700,
      fail: 'none',
      status: 'degraded',
    });
    expect(await publicStatus('provider_c')).toBe('degraded');

    const unchanged = await admin('PUT', '/providers/provider_c', { body: {} });
    expect(unchanged.body).toEqual({ slug: 'provider_c', latency_ms: 700, fail: 'none', status: 'degraded' });
  });

  it('makes a provider fail for real: a live search reports it failed', async () => {
    expect((await admin('PUT', '/providers/provider_a', { body: { fail: 'error' } })).status).toBe(200);
    const res = await api('/v1/jobs/search', {
      key,
      body: {
        filters: { title_or: ['engineer'] },
        waterfall: { strategy: 'max_coverage', providers: ['own_index', 'provider_a'] },
        limit: 1,
      },
    });
    expect(res.status).toBe(200);
    const body = JobSearchResponseSchema.parse(res.body);
    expect(body.metadata.status).toBe('partial');
    expect(body.metadata.providers.failed).toContainEqual({ provider: 'provider_a', code: 'provider_error' });
  });

  it('resets every provider to its seeded behaviour', async () => {
    await admin('PUT', '/providers/provider_e', { body: { status: 'down', latency_ms: 5 } });
    const res = await admin('POST', '/providers/reset');
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    const list = (await admin('GET', '/providers')).body?.['data'] as { slug: string; fail: string; status: string }[];
    expect(list).toHaveLength(7);
    expect(list.every((p) => p.fail === 'none' && p.status === 'operational')).toBe(true);
    expect((await settingsOf('provider_c'))?.latency_ms).not.toBe(700);
    expect(
      await eventually(
        () => publicStatus('provider_e'),
        (s) => s === 'operational',
      ),
    ).toBe('operational');
  });

  it.each([
    [{ fail: 'crash' }, 'fail'],
    [{ status: 'up' }, 'status'],
    [{ latency_ms: -1 }, 'latency_ms'],
    [{ latency_ms: 'slow' }, 'latency_ms'],
    [{ delay: 5 }, 'delay'],
  ])('refuses %j with param %s', async (body, param) => {
    expectError(await admin('PUT', '/providers/provider_a', { body }), 400, 'invalid_request', param);
  });

  it('answers 404 for an unknown provider', async () => {
    expectError(await admin('PUT', '/providers/provider_x', { body: { status: 'down' } }), 404, 'not_found');
  });
});

describe('admin API: the simulated world', () => {
  let key: string;
  const domain = `kiln-${unique()}.example`;
  const title = `Kiln Whisperer Q${unique()}`;
  let worldJobId: string;

  beforeAll(async () => {
    key = (await createAccount({ plan: 'pro', credits: 100 })).live_key;
  });

  const search = (titleOr: string) =>
    api('/v1/jobs/search', {
      key,
      body: { filters: { title_or: [titleOr] }, waterfall: { providers: ['own_index'] }, limit: 10 },
    });

  it('adds a company and an opening that a live search then finds by its unique title', async () => {
    const company = await admin('POST', '/world/companies', {
      body: { domain: domain.toUpperCase(), name: 'Kiln Works' },
    });
    expect(company.status).toBe(201);
    expect(company.body).toEqual({ domain, name: 'Kiln Works' });

    const job = await admin('POST', '/world/jobs', {
      body: {
        company_domain: domain,
        title,
        providers: ['own_index', 'provider_b'],
        location: { city: 'Leeds', country_code: 'GB', remote: false },
        employment_type: 'full_time',
        seniority: 'senior',
        salary: { min: 40000, max: 50000, currency: 'GBP', period: 'year' },
        description: 'Keeps the kilns happy.',
        apply_url: `https://${domain}/apply`,
      },
    });
    expect(job.status).toBe(201);
    expect(Object.keys(job.body ?? {})).toEqual(['world_job_id']);
    worldJobId = (job.body as { world_job_id: string }).world_job_id;
    expect(worldJobId).toBeTruthy();

    // the own index answers from the store: the next refresh pass's crawler sweep brings the opening in
    await refreshPass();
    const res = await search(title);
    expect(res.status).toBe(200);
    const found = JobSearchResponseSchema.parse(res.body).data;
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ title, company: { domain }, location: { country_code: 'GB' } });
    // the crawler saw it (and the same pass may have merged provider_b's new listing of it)
    expect(found[0]!.sources.map((s) => s.provider)).toContain('own_index');
  });

  it('patches, closes and reposts the opening', async () => {
    const patched = await admin('PATCH', `/world/jobs/${worldJobId}`, {
      body: { description: 'Keeps the kilns very happy.' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ world_job_id: worldJobId, description: 'Keeps the kilns very happy.' });

    const closed = await admin('POST', `/world/jobs/${worldJobId}/close`, { body: { reason: 'filled' } });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ world_job_id: worldJobId, status: 'closed', closed_reason: 'filled' });

    const reposted = await admin('POST', `/world/jobs/${worldJobId}/repost`);
    expect(reposted.status).toBe(200);
    expect(reposted.body).toMatchObject({ world_job_id: worldJobId, status: 'open', repost_count: 1 });
    expect((await admin('POST', `/world/jobs/${worldJobId}/repost`, { body: {} })).status).toBe(200);
  });

  it.each([
    ['POST', '/world/companies', { domain: 'https://x.example/', name: 'X' }, 'domain'],
    ['POST', '/world/companies', { domain: 'x.example' }, 'name'],
    ['POST', '/world/jobs', { company_domain: 'x.example', title: 'T', providers: [] }, 'providers'],
    ['POST', '/world/jobs', { company_domain: 'x.example', title: 'T', providers: ['provider_q'] }, 'providers[0]'],
    ['POST', '/world/jobs', { company_domain: 'x.example', providers: ['own_index'] }, 'title'],
    [
      'POST',
      '/world/jobs',
      { company_domain: 'x.example', title: 'T', providers: ['own_index'], seniority: 'guru' },
      'seniority',
    ],
    [
      'POST',
      '/world/jobs',
      {
        company_domain: 'x.example',
        title: 'T',
        providers: ['own_index'],
        salary: { min: 9, max: 1, currency: 'EUR', period: 'year' },
      },
      'salary.min',
    ],
    ['PATCH', '/world/jobs/any', {}, 'body'],
    ['PATCH', '/world/jobs/any', { status: 'closed' }, 'status'],
    ['POST', '/world/jobs/any/close', { reason: 'unknown' }, 'reason'],
    ['POST', '/world/jobs/any/repost', { x: 1 }, 'x'],
  ])('%s %s %j -> 400 with param %s', async (method, path, body, param) => {
    expectError(await admin(method, path, { body }), 400, 'invalid_request', param);
  });

  it('answers 404 for an unknown opening', async () => {
    expectError(await admin('PATCH', '/world/jobs/w_nope', { body: { title: 'T' } }), 404, 'not_found');
    expectError(await admin('POST', '/world/jobs/w_nope/close', { body: { reason: 'filled' } }), 404, 'not_found');
    expectError(await admin('POST', '/world/jobs/w_nope/repost'), 404, 'not_found');
  });
});

describe('admin API: refresh', () => {
  it('accepts a refresh pass with 202 and names it', async () => {
    const res = await admin('POST', '/refresh');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'accepted', refresh_id: expect.stringMatching(/^rfr_[a-z0-9]{16}$/) });
  });
});

describe('admin API: body-less calls from tools that always send Content-Type: application/json', () => {
  it.each([
    ['/refresh', 202],
    ['/providers/reset', 204],
  ])('POST %s with an empty JSON body answers %i', async (path, status) => {
    expect((await admin('POST', path, { rawBody: '' })).status).toBe(status);
  });
});
