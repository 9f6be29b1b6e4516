import pg from 'pg';
import { PLAN_CAPS } from '@jobs/plans';
import { api, createAccount, resetProviders, setProvider } from '@jobs/e2e-support';

/**
 * What one account may keep at once (docs/decisions/0041-account-caps.md): watches and unfinished
 * async searches are capped by plan, concurrent creates never pass a cap together, and a retried
 * create (same Idempotency-Key) still answers its watch at the cap.
 */
const WEBHOOK = 'http://127.0.0.1:9/hooks/caps';

async function createWatch(key: string, domain: string, idempotencyKey?: string) {
  return api('/v1/watches', {
    key,
    body: { type: 'company', domain, webhook_url: WEBHOOK },
    ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
  });
}

describe('account caps', () => {
  const db = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
  beforeAll(() => db.connect());
  afterAll(async () => {
    await resetProviders();
    await db.end();
  });

  it('keeps a Pro account to its watches, concurrent creates included, and names the plan with more', async () => {
    const cap = PLAN_CAPS.pro.watches;
    const account = await createAccount({ plan: 'pro', credits: 0 });
    // all but five of the cap, as paused rows: never matched, counted all the same
    await db.query(
      `INSERT INTO watches (id, account_id, type, domain, webhook_url, events, status, mode, providers_enabled)
       SELECT 'wat_capfill' || $1::text || n, $1, 'company', 'cap-' || n || '.invalid', $2,
              ARRAY['job.opened'], 'paused', 'live', ARRAY['own_index']::provider[]
       FROM generate_series(1, $3::int) AS n`,
      [account.account_id, WEBHOOK, cap - 5],
    );
    const retried = await createWatch(account.live_key, 'cap-retried.invalid', `caps-${account.account_id}`);
    expect(retried.status).toBe(201);

    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createWatch(account.live_key, `cap-race-${i}.invalid`)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array<number>(4).fill(201), ...Array<number>(8).fill(403)]);
    for (const refused of answers.filter((a) => a.status === 403))
      expect(refused.body).toMatchObject({ error: { code: 'plan_required', required_plan: 'scale' } });
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM watches WHERE account_id = $1', [
      account.account_id,
    ]);
    expect(rows[0]!.n).toBe(cap);

    // a retry of a watch already made answers it, cap or not; a test key's watches count apart
    const again = await createWatch(account.live_key, 'cap-retried.invalid', `caps-${account.account_id}`);
    expect([again.status, (again.body as { id: string }).id]).toEqual([201, (retried.body as { id: string }).id]);
    expect((await createWatch(account.test_key, 'cap-test-key.invalid')).status).toBe(201);

    // one deleted, one more fits
    const deleted = await api(`/v1/watches/${(retried.body as { id: string }).id}`, {
      key: account.live_key,
      method: 'DELETE',
    });
    expect(deleted.status).toBeLessThan(300);
    expect((await createWatch(account.live_key, 'cap-after-delete.invalid')).status).toBe(201);
  });

  it('refuses async searches past the unfinished cap with 429, and takes more once they finish', async () => {
    const cap = PLAN_CAPS.growth.unfinishedAsyncSearches;
    const account = await createAccount({ plan: 'growth', credits: 100_000 });
    const body = {
      filters: { title_or: ['engineer'] },
      // provider_a alone: no search can finish before its slow answer (the own index could fill it)
      waterfall: { strategy: 'max_coverage', providers: ['provider_a'] },
      limit: 20,
    };
    // provider_a answers slowly, so the searches stay queued or running while more arrive
    await setProvider('provider_a', { latency_ms: 2_000 });
    const answers = await Promise.all(
      Array.from({ length: cap + 4 }, () => api('/v1/searches', { key: account.live_key, body })),
    );
    const accepted = answers.filter((a) => a.status === 202);
    const refused = answers.filter((a) => a.status === 429);
    expect([accepted.length, refused.length]).toEqual([cap, 4]);
    for (const r of refused) {
      expect(r.body).toMatchObject({ error: { code: 'rate_limited' } });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    await setProvider('provider_a', { latency_ms: 0 });

    // once its searches finish, the account may start more
    const ids = accepted.map((a) => (a.body as { id: string }).id);
    const deadline = Date.now() + 180_000;
    for (const id of ids) {
      for (;;) {
        const status = ((await api(`/v1/searches/${id}?limit=1`, { key: account.live_key })).body as { status: string })
          .status;
        if (!['queued', 'running'].includes(status)) break;
        if (Date.now() > deadline) throw new Error(`search ${id} still ${status}`);
        await new Promise((r) => setTimeout(r, 300));
      }
    }
    expect((await api('/v1/searches', { key: account.live_key, body })).status).toBe(202);
  });
});
