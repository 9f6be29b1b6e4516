import { ErrorEnvelopeSchema } from '@jobs/contracts';
import { dashboard, signIn, type DashboardSession } from './dashboard-session.js';
import { api, createAccount, stack } from './stack.js';

/** The dashboard's cap on active keys (docs/decisions/0057) and its bounded key list. */
const CAP = 25;
const REVOKED_SHOWN = 20;

interface Key {
  id: string;
  key?: string;
  label: string | null;
  revoked_at: string | null;
}

async function createKey(session: DashboardSession, label: string): Promise<Response> {
  return dashboard(session, '/keys', { mode: 'test', label });
}

async function listKeys(session: DashboardSession): Promise<Key[]> {
  const res = await dashboard(session, '/keys');
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Key[] }).data;
}

describe('keys created in the dashboard', () => {
  it(`keeps at most ${CAP} active, however many creates arrive at once, and frees a place at each revocation`, async () => {
    const account = await createAccount({ plan: 'pro', credits: 0, rate_limit: { limit: 1000, window_seconds: 60 } });
    // the account's own two keys (live and test, from the admin API) count
    const session = await signIn(account.live_key);
    for (let i = 0; i < CAP - 5; i++) expect((await createKey(session, `k${i}`)).status).toBe(201);

    // 8 creates at once for the last 3 places: 3 pass, the rest are refused, none past the cap
    const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => createKey(session, `burst${i}`)));
    expect(burst.filter((r) => r.status === 201)).toHaveLength(3);
    const refused = burst.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400, 400, 400]);
    const error = ErrorEnvelopeSchema.parse(await refused[0]!.json()).error;
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/revoke one to add another/);
    const keys = await listKeys(session);
    expect(keys.filter((k) => k.revoked_at === null)).toHaveLength(CAP);

    // a revoked key frees its place; the new key works at once
    const revoked = keys.find((k) => k.revoked_at === null && k.label === 'k0')!;
    expect((await dashboard(session, `/keys/${revoked.id}`, undefined, 'DELETE')).status).toBe(200);
    const created = await createKey(session, 'after revocation');
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as Key;
    expect((await api('/v1/account', { key: key! })).status).toBe(200);
    expect((await createKey(session, 'one too many')).status).toBe(400);
    // the admin API is the operator's: the dashboard's cap does not bind it (operator.md: 201)
    const admin = await fetch(`${stack.adminUrl}/admin/accounts/${account.account_id}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'live' }),
    });
    expect(admin.status).toBe(201);
  });

  it(`lists the active keys and the ${REVOKED_SHOWN} most recently revoked, however many were revoked before`, async () => {
    const account = await createAccount({ plan: 'pro', credits: 0, rate_limit: { limit: 1000, window_seconds: 60 } });
    const session = await signIn(account.live_key);
    const revokedIds: string[] = [];
    for (let i = 0; i < REVOKED_SHOWN + 5; i++) {
      const created = (await (await createKey(session, `short-lived ${i}`)).json()) as Key;
      expect((await dashboard(session, `/keys/${created.id}`, undefined, 'DELETE')).status).toBe(200);
      revokedIds.push(created.id);
    }
    const keys = await listKeys(session);
    // the account's live and test keys, then the newest revocations
    expect(keys.filter((k) => k.revoked_at === null)).toHaveLength(2);
    expect(keys.filter((k) => k.revoked_at !== null).map((k) => k.id)).toEqual(
      revokedIds.slice(-REVOKED_SHOWN).reverse(),
    );
  });
});
