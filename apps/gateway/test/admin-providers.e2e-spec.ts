import { AdminProviderSettingsSchema, JobSearchResponseSchema, ProviderListResponseSchema } from '@jobs/contracts';
import { admin, eventually, expectError } from './admin-api.js';
import { api, createAccount } from './stack.js';

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
