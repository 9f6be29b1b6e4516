import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PROVIDER_SLUGS, SIM_PROVIDERS } from '@jobs/sim-world';
import { AppModule } from './app.module.js';
import { configureApp } from './configure-app.js';

const T0 = Date.UTC(2025, 5, 2, 12, 0, 0);
const TOKEN = 'sim-spec-admin-token';

describe('provider-sim over HTTP', () => {
  let app: NestFastifyApplication;
  let base: string;

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(
      AppModule.register({ seed: 42, timeoutMs: 300, adminToken: TOKEN, clock: () => T0 }),
      new FastifyAdapter(),
      {
        bodyParser: false,
        logger: false,
      },
    );
    configureApp(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = await app.getUrl();
    // Fast providers for the test: every latency exact and small.
    for (const slug of PROVIDER_SLUGS) {
      await call('PUT', `/_control/providers/${slug}`, { latency_ms: 5 });
    }
    // generating the 36,000-requisition world takes seconds on a busy machine
  }, 60_000);

  afterAll(async () => {
    await app.close();
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies in seven formats, checked by the assertions
  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(path.startsWith('/_control') ? { authorization: `Bearer ${TOKEN}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  it('is live and ready', async () => {
    expect(await call('GET', '/livez')).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await call('GET', '/readyz')).status).toBe(200);
  });

  it('serves every provider in its own format', async () => {
    const a = await call('GET', '/provider_a/v2/jobs?q=engineer&country=UK&per_page=2');
    expect(a.status).toBe(200);
    expect(a.body.results[0].location.country).toBe('UK');
    expect(a.body.next_page).toBe(2);
    const b = await call('GET', '/provider_b/api/search?keywords=engineer|analyst&limit=2');
    expect(b.body.jobs[0]).toHaveProperty('salary_text');
    const c = await call('GET', '/provider_c/v1/search?query=engineer&pageSize=2');
    expect(c.body.nextPageToken).toEqual(expect.any(String));
    const d = await call('GET', '/provider_d/api/v1/feed?page_size=2');
    expect(d.body.data.items).toHaveLength(2);
    const e = await call('GET', '/provider_e/select?q=manager&rows=2');
    expect(e.body.response.docs).toHaveLength(2);
    const f = await call('POST', '/provider_f/api/search', { keywords: ['engineer'], limit: 2 });
    expect(f.body.status).toBe('ok');
    const own = await call('GET', '/own_index/v1/jobs?limit=2');
    const detail = await call('GET', `/own_index/v1/jobs/${own.body.data[0].id}`);
    expect(detail.body.id).toBe(own.body.data[0].id);
  });

  it("serves every route of the simulator's registry, and no other provider path", async () => {
    for (const slug of PROVIDER_SLUGS) {
      for (const route of SIM_PROVIDERS[slug].routes) {
        const answer = await call(
          route.method,
          route.path.replace(':id', 'not-an-id'),
          route.method === 'POST' ? {} : undefined,
        );
        expect([slug, route.operation, answer.status]).toEqual([
          slug,
          route.operation,
          route.operation === 'search' ? 200 : 404,
        ]);
      }
    }
    expect((await call('GET', '/provider_a/v9/jobs')).status).toBe(404);
  });

  it('applies injected errors, timeouts and latency', async () => {
    await call('PUT', '/_control/providers/provider_a', { fail: 'error' });
    const failed = await call('GET', '/provider_a/v2/jobs');
    expect(failed).toEqual({
      status: 503,
      body: { error: { code: 'SERVICE_UNAVAILABLE', message: 'service temporarily unavailable' } },
    });
    await call('PUT', '/_control/providers/provider_b', { fail: 'timeout', status: 'degraded' });
    const started = Date.now();
    expect((await call('GET', '/provider_b/api/search?limit=1')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const listed = await call('GET', '/_control/providers');
    expect(listed.body.providers.find((p: { slug: string }) => p.slug === 'provider_b')).toMatchObject({
      fail: 'timeout',
      status: 'degraded',
    });
    expect((await call('POST', '/_control/providers/reset')).status).toBe(204);
    expect(
      (await call('GET', '/_control/providers')).body.providers.every((p: { fail: string }) => p.fail === 'none'),
    ).toBe(true);
  });

  it('adds, patches, closes and re-lists jobs, with new provider ids on repost', async () => {
    expect(
      await call('POST', '/_control/world/companies', { domain: 'acme-widgets.example', name: 'Acme Widgets' }),
    ).toEqual({
      status: 201,
      body: { domain: 'acme-widgets.example', name: 'Acme Widgets' },
    });
    const created = await call('POST', '/_control/world/jobs', {
      company_domain: 'acme-widgets.example',
      title: 'Underwater Basket Weaver 7f3a',
      providers: ['provider_c'],
    });
    expect(created.status).toBe(201);
    const id = created.body.world_job_id as string;
    const search = () => call('GET', '/provider_c/v1/search?query=underwater+basket+weaver');
    const first = (await search()).body.jobs;
    expect(first).toHaveLength(1);
    expect((await call('GET', '/own_index/v1/jobs?title=underwater+basket+weaver')).body.total).toBe(0);

    expect(
      (await call('PATCH', `/_control/world/jobs/${id}`, { location: { country_code: 'de', remote: true } })).body
        .location,
    ).toMatchObject({ country_code: 'DE', remote: true });
    expect((await search()).body.jobs[0]).toMatchObject({ workplaceType: 'REMOTE', location: { countryCode: 'DEU' } });

    expect((await call('POST', `/_control/world/jobs/${id}/close`, { reason: 'filled' })).body).toMatchObject({
      status: 'closed',
      closed_reason: 'filled',
    });
    expect((await search()).body.jobs).toHaveLength(0);

    const reposted = await call('POST', `/_control/world/jobs/${id}/repost`);
    expect(reposted.body).toMatchObject({ status: 'open', repost_count: 1 });
    const again = (await search()).body.jobs;
    expect(again[0].jobId).not.toBe(first[0].jobId);
    const truth = await call('GET', `/_control/ground-truth?provider=provider_c&provider_job_id=${again[0].jobId}`);
    expect(truth.body.world_job_id).toBe(id);
  });

  it('answers the control routes only with the admin token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Bearer ${TOKEN}x`, TOKEN]) {
      const res = await fetch(`${base}/_control/providers/reset`, {
        method: 'POST',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect({ authorization, status: res.status }).toEqual({ authorization, status: 401 });
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
    // the partners' own endpoints stay open, as a real partner's would be to its customers
    expect((await fetch(`${base}/livez`)).status).toBe(200);
  });

  it('rejects bad control input with invalid_request and the field name', async () => {
    expect(await call('POST', '/_control/world/jobs', { title: 'x', providers: [] })).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_request', param: 'company_domain' } },
    });
    expect(await call('POST', '/_control/world/jobs/wj_0000000000/close', { reason: 'bored' })).toMatchObject({
      status: 400,
      body: { error: { param: 'reason' } },
    });
    expect(await call('PUT', '/_control/providers/provider_a', { latency_ms: -1 })).toMatchObject({
      status: 400,
      body: { error: { param: 'latency_ms' } },
    });
    expect((await call('POST', '/_control/world/jobs/wj_nope/repost')).status).toBe(404);
  });

  it("tells the market clock; an injected clock's speed cannot be changed", async () => {
    expect(await call('GET', '/_control/world/clock')).toEqual({
      status: 200,
      body: { now: new Date(T0).toISOString(), speed: 1 },
    });
    expect((await call('PUT', '/_control/world/clock', { speed: 60 })).status).toBe(409);
    expect(await call('PUT', '/_control/world/clock', { speed: -1 })).toMatchObject({
      status: 400,
      body: { error: { param: 'speed' } },
    });
  });
});
