import pg from 'pg';
import { ErrorEnvelopeSchema, JobSearchResponseSchema, LedgerListResponseSchema } from '@jobs/contracts';
import { api, createAccount } from './stack.js';

/**
 * interface.md: "A retry after internal_error with the same key never charges twice." Billing is
 * held up (a test transaction locks the account row billing must lock to charge), so the
 * gateway gives up and answers 500; billing then charges once the lock is released. The retry
 * with the same Idempotency-Key gets that one search's answer and charges nothing more.
 */
describe('a retry after internal_error', () => {
  it('answers the first attempt’s search and never charges twice', async () => {
    const account = await createAccount({ plan: 'pro', credits: 100 });
    const key = account.live_key;
    const body = {
      filters: { title_or: ['engineer'] },
      waterfall: { strategy: 'own_only', timeout_ms: 1000 },
      limit: 3,
    };
    const headers = { 'Idempotency-Key': `retry-${account.account_id}` };

    const db = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
    try {
      await db.query('BEGIN');
      await db.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [account.account_id]);
      const first = await api('/v1/jobs/search', { key, body, headers });
      expect(first.status).toBe(500);
      expect(ErrorEnvelopeSchema.parse(first.body).error.code).toBe('internal_error');
      await db.query('ROLLBACK');
    } finally {
      await db.end();
    }

    // Billing now charges the held search, once.
    const credits = async () => (await api('/v1/account', { key })).body!['credits_remaining'] as number;
    for (let i = 0; i < 100 && (await credits()) === 100; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await credits()).toBe(97);

    const retry = await api('/v1/jobs/search', { key, body, headers });
    expect(retry.status).toBe(200);
    const page = JobSearchResponseSchema.parse(retry.body);
    expect(page.data).toHaveLength(3);
    expect(page.metadata.credits_charged).toBe(3);
    expect(await credits()).toBe(97);

    const ledger = LedgerListResponseSchema.parse((await api('/v1/billing/ledger', { key })).body);
    expect(ledger.data.filter((e) => e.reason === 'charged')).toHaveLength(3);
    expect(new Set(ledger.data.map((e) => e.request_id)).size).toBe(1);
  }, 60_000);
});
