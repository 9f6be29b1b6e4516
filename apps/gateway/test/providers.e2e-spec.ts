import { AccountSchema, PROVIDER_SLUGS, type Provider, ProviderListResponseSchema } from '@jobs/contracts';
import { api, createAccount, stack } from './stack.js';

async function adminCall(method: 'PUT' | 'POST', path: string, body?: unknown): Promise<number> {
  const res = await fetch(`${stack.adminUrl}/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${stack.adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.body?.cancel();
  return res.status;
}

async function providers(key: string): Promise<Provider[]> {
  const res = await api('/v1/providers', { key });
  expect(res.status).toBe(200);
  return ProviderListResponseSchema.parse(res.body).data;
}

/** Polls until `accept` holds (health checks run in the background), or returns the last read. */
async function until(key: string, accept: (list: Provider[]) => boolean, timeoutMs = 20_000): Promise<Provider[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await providers(key);
    if (accept(list) || Date.now() > deadline) return list;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const statusOf = (list: Provider[], slug: string) => list.find((p) => p.slug === slug)?.status;

describe('GET /v1/providers', () => {
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    for (const plan of ['starter', 'growth', 'pro']) keys[plan] = (await createAccount({ plan, credits: 5 })).live_key;
  });
  afterAll(async () => {
    await adminCall('POST', '/providers/reset');
  });

  it('lists all seven sources, named, with a recent health check', async () => {
    const list = await providers(keys['pro']!);
    expect(list.map((p) => p.slug)).toEqual([...PROVIDER_SLUGS]);
    expect(list.every((p) => p.name.length > 0)).toBe(true);
    for (const p of list) expect(Date.now() - Date.parse(p.last_checked_at)).toBeLessThan(60_000);
    const healthy = await until(keys['pro']!, (l) => l.every((p) => p.status === 'operational'));
    expect(healthy.map((p) => p.status)).toEqual(Array(7).fill('operational'));
  });

  it('checks again and again: last_checked_at moves on', async () => {
    const before = Date.parse((await providers(keys['pro']!))[0]!.last_checked_at);
    const later = await until(keys['pro']!, (l) => Date.parse(l[0]!.last_checked_at) > before, 25_000);
    expect(Date.parse(later[0]!.last_checked_at)).toBeGreaterThan(before);
  });

  it.each([
    ['starter', ['own_index']],
    ['growth', ['own_index', 'provider_a', 'provider_b']],
    ['pro', [...PROVIDER_SLUGS]],
  ])('marks what a %s plan routes, as GET /v1/account does', async (plan, expected) => {
    const key = keys[plan]!;
    const enabled = (await providers(key)).filter((p) => p.enabled_on_your_plan).map((p) => p.slug);
    const account = AccountSchema.parse((await api('/v1/account', { key })).body);
    expect(enabled).toEqual(expected);
    expect([...account.providers_enabled].sort()).toEqual([...enabled].sort());
  });

  it('reports the status an operator sets at once, and back after a reset', async () => {
    expect(await adminCall('PUT', '/providers/provider_e', { status: 'down' })).toBe(200);
    const list = await providers(keys['starter']!);
    expect(statusOf(list, 'provider_e')).toBe('down');
    expect(statusOf(list, 'provider_a')).toBe('operational');

    expect(await adminCall('PUT', '/providers/provider_e', { status: 'degraded' })).toBe(200);
    expect(statusOf(await providers(keys['starter']!), 'provider_e')).toBe('degraded');

    expect(await adminCall('POST', '/providers/reset')).toBe(204);
    expect(
      statusOf(await until(keys['starter']!, (l) => statusOf(l, 'provider_e') === 'operational'), 'provider_e'),
    ).toBe('operational');
  });

  it('finds out by itself when a provider fails, hangs or slows down', async () => {
    // The operator status stays "operational": only the live checks can tell.
    expect(await adminCall('PUT', '/providers/provider_d', { fail: 'error' })).toBe(200);
    expect(await adminCall('PUT', '/providers/provider_b', { fail: 'timeout' })).toBe(200);
    expect(await adminCall('PUT', '/providers/provider_f', { latency_ms: 2_000 })).toBe(200);
    const expected = {
      provider_b: 'down',
      provider_d: 'down',
      provider_f: 'degraded',
      own_index: 'operational',
      provider_a: 'operational',
    };
    const seen = (l: Provider[]) => Object.fromEntries(Object.keys(expected).map((slug) => [slug, statusOf(l, slug)]));
    expect(seen(await until(keys['pro']!, (l) => JSON.stringify(seen(l)) === JSON.stringify(expected)))).toEqual(
      expected,
    );

    expect(await adminCall('POST', '/providers/reset')).toBe(204);
    const back = await until(keys['pro']!, (l) => l.every((p) => p.status === 'operational'));
    expect(back.map((p) => p.status)).toEqual(Array(7).fill('operational'));
  });

  it('answers 401 without a valid key', async () => {
    expect((await api('/v1/providers')).status).toBe(401);
    expect((await api('/v1/providers', { key: 'svc_live_00000000000000000000000000000000' })).status).toBe(401);
  });
});
