import { admin, expectError } from './admin-api.js';
import { api, stack } from './stack.js';

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

describe('admin API: body-less calls from tools that always send Content-Type: application/json', () => {
  it.each([
    ['/refresh', 202],
    ['/providers/reset', 204],
  ])('POST %s with an empty JSON body answers %i', async (path, status) => {
    expect((await admin('POST', path, { rawBody: '' })).status).toBe(status);
  });
});
