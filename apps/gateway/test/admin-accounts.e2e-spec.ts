import { AccountSchema, AdminAccountCreateResponseSchema, ErrorEnvelopeSchema } from '@jobs/contracts';
import { admin, expectError } from './admin-api.js';
import { api, createAccount } from './stack.js';

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
