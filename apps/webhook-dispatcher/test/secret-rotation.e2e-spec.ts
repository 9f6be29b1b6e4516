import { createHmac } from 'node:crypto';
import pg from 'pg';
import { AdminWebhookSecretRotateResponseSchema, ErrorEnvelopeSchema } from '@jobs/contracts';
import { admin, createAccount, stack } from '@jobs/e2e-support';
import { EventPublisher, makeEvent, Receiver, receiverVerifies, secretOf } from './webhook-kit.js';

/**
 * Webhook signing secrets: stored sealed (never the secret in the table), and rotated with an
 * overlap window through the admin API: during the overlap every delivery carries two `v1`
 * signatures, the new secret's first; after it (or with no overlap) only the new one.
 */
describe('webhook secret rotation', () => {
  const receiver = new Receiver();
  const publisher = new EventPublisher();
  let db: pg.Client;
  let account: { account_id: string; live_key: string; test_key: string };

  beforeAll(async () => {
    await Promise.all([receiver.start(), publisher.start()]);
    db = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
    account = await createAccount({ plan: 'pro', credits: 10 });
  });

  afterAll(async () => {
    await Promise.all([publisher.stop(), receiver.stop(), db.end()]);
  });

  /** The v1 values of a Service-Signature header, in order, and its t. */
  const partsOf = (header: string | string[] | undefined) => {
    const parts = String(header).split(',');
    return {
      t: parts.find((p) => p.startsWith('t='))!.slice(2),
      v1: parts.filter((p) => p.startsWith('v1=')).map((p) => p.slice(3)),
    };
  };
  const hmac = (secret: string, t: string, raw: string) =>
    createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex');

  const rotate = async (url: string, previousExpiresInSeconds?: number) =>
    AdminWebhookSecretRotateResponseSchema.parse(
      await admin('POST', `/accounts/${account.account_id}/webhook-secret/rotate`, {
        url,
        ...(previousExpiresInSeconds === undefined ? {} : { previous_expires_in_seconds: previousExpiresInSeconds }),
      }),
    );

  it('stores secrets sealed: the table never holds the secret the admin API answers', async () => {
    const url = receiver.endpoint();
    const secret = await secretOf(account.account_id, url);
    const { rows } = await db.query<{ secret: string }>(
      'SELECT secret FROM webhook_endpoint_secrets WHERE account_id = $1 AND url = $2',
      [account.account_id, url],
    );
    expect(rows[0]!.secret.startsWith('whenc1.')).toBe(true);
    expect(rows[0]!.secret).not.toContain(secret.slice('whsec_'.length));
  });

  it(
    'during the overlap a delivery is signed with the new secret ' + 'first and the old one second; either verifies',
    async () => {
      const url = receiver.endpoint();
      const old = await secretOf(account.account_id, url);
      const rotated = await rotate(url, 3600);
      expect(rotated.secret).not.toBe(old);
      expect(Date.parse(rotated.previous_expires_at!) - Date.now()).toBeGreaterThan(3500_000);
      expect(await secretOf(account.account_id, url)).toBe(rotated.secret);

      await publisher.publish(account.account_id, [makeEvent()], url);
      const [arrival] = await receiver.waitFor(url, 1);
      const { t, v1 } = partsOf(arrival!.headers['service-signature']);
      expect(v1).toEqual([hmac(rotated.secret, t, arrival!.raw), hmac(old, t, arrival!.raw)]);
      expect(receiverVerifies(arrival!.headers['service-signature'], rotated.secret, arrival!.raw).ok).toBe(true);
      expect(receiverVerifies(arrival!.headers['service-signature'], old, arrival!.raw).ok).toBe(true);
    },
  );

  it('with no overlap, and after the overlap ends, only the new secret signs', async () => {
    const url = receiver.endpoint();
    const old = await secretOf(account.account_id, url);
    const rotated = await rotate(url, 0);
    expect(rotated.previous_expires_at).toBeNull();
    await publisher.publish(account.account_id, [makeEvent()], url);
    const [first] = await receiver.waitFor(url, 1);
    const { t, v1 } = partsOf(first!.headers['service-signature']);
    expect(v1).toEqual([hmac(rotated.secret, t, first!.raw)]);
    expect(receiverVerifies(first!.headers['service-signature'], old, first!.raw).ok).toBe(false);

    // an overlap that has ended: the old secret no longer signs
    const again = await rotate(url, 3600);
    await db.query(
      `UPDATE webhook_endpoint_secrets SET previous_expires_at = ` +
        `now() - interval '1 second' WHERE account_id = $1 AND url = ` +
        `$2`,
      [account.account_id, url],
    );
    await publisher.publish(account.account_id, [makeEvent()], url);
    const arrivals = await receiver.waitFor(url, 2);
    const last = partsOf(arrivals[1]!.headers['service-signature']);
    expect(last.v1).toEqual([hmac(again.secret, last.t, arrivals[1]!.raw)]);
  });

  it('refuses a bad rotation: an unknown account 404, an overlap out of bounds 400, no token 401', async () => {
    const url = receiver.endpoint();
    await expect(admin('POST', '/accounts/acc_nobody/webhook-secret/rotate', { url }, 404)).resolves.toBeDefined();
    const bad = await admin(
      'POST',
      `/accounts/${account.account_id}/webhook-secret/rotate`,
      { url, previous_expires_in_seconds: 8 * 86_400 },
      400,
    );
    expect(ErrorEnvelopeSchema.parse(bad).error.param).toBe('previous_expires_in_seconds');
    const anonymous = await fetch(`${stack.adminUrl}/admin/accounts/${account.account_id}/webhook-secret/rotate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    });
    expect(anonymous.status).toBe(401);
  });
});
