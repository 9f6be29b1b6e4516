import { AdminWebhookSecretResponseSchema } from '@jobs/contracts';
import { admin, expectError, unique } from './admin-api.js';
import { createAccount } from './stack.js';

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
