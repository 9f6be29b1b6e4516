import pg from 'pg';
import { ErrorEnvelopeSchema, JobSearchResponseSchema, LedgerListResponseSchema, Topics } from '@jobs/contracts';
import { api, createAccount, TopicTap } from './stack.js';

/**
 * interface.md: "A retry after internal_error with the same key never charges twice." Billing is
 * held up (a test transaction locks the account row billing must lock to charge) until the
 * gateway has given up and answered 500. The page's charge then comes after its `answer_by`:
 * billing charges nothing and answers `expired`, so the caller was not charged for the answer it
 * never got, and the retry with the same Idempotency-Key runs the search again, charged once.
 */
describe('a retry after internal_error', () => {
  const tap = new TopicTap([Topics.SearchPageCharged.name]);
  beforeAll(() => tap.start());
  afterAll(() => tap.stop());

  it('charges nothing for the answer the caller never got, and the retry once', async () => {
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
    let firstId: string | null;
    try {
      await db.query('BEGIN');
      await db.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [account.account_id]);
      const first = await api('/v1/jobs/search', { key, body, headers });
      expect(first.status).toBe(500);
      expect(ErrorEnvelopeSchema.parse(first.body).error.code).toBe('internal_error');
      firstId = first.headers.get('x-request-id');
      await db.query('ROLLBACK');
    } finally {
      await db.end();
    }

    const refused = await tap.waitFor((m) => m.value['search_id'] === firstId, 30_000);
    expect(refused.value).toMatchObject({ outcome: 'expired', credits_charged: 0, credits_remaining: 100 });
    const credits = async () => (await api('/v1/account', { key })).body!['credits_remaining'] as number;
    expect(await credits()).toBe(100);

    const retry = await api('/v1/jobs/search', { key, body, headers });
    expect(retry.status).toBe(200);
    const page = JobSearchResponseSchema.parse(retry.body);
    expect(page.data).toHaveLength(3);
    expect(page.metadata.credits_charged).toBe(3);
    expect(page.metadata.request_id).not.toBe(firstId);
    expect(await credits()).toBe(97);

    const again = await api('/v1/jobs/search', { key, body, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await credits()).toBe(97);

    const ledger = LedgerListResponseSchema.parse((await api('/v1/billing/ledger', { key })).body);
    expect(ledger.data.filter((e) => e.reason === 'charged')).toHaveLength(3);
    expect(new Set(ledger.data.map((e) => e.request_id))).toEqual(new Set([page.metadata.request_id]));
  }, 60_000);
});
