import { ErrorEnvelopeSchema, JobSchema, JobSearchResponseSchema, LedgerListResponseSchema } from '@jobs/contracts';
import { api, createAccount } from '@jobs/e2e-support';

/** Billing rules over HTTP: GET /jobs/{id} and the ledger. */
describe('billing', () => {
  let payer: string;
  let jobIds: string[];

  beforeAll(async () => {
    payer = (await createAccount({ plan: 'pro', credits: 1000 })).live_key;
    const res = await api('/v1/jobs/search', {
      key: payer,
      body: { filters: { title_or: ['manager'] }, waterfall: { providers: ['own_index'] }, limit: 60 },
    });
    expect(res.status).toBe(200);
    jobIds = JobSearchResponseSchema.parse(res.body).data.map((j) => j.id);
    expect(jobIds.length).toBeGreaterThan(50);
  });

  const credits = async (key: string) => (await api('/v1/account', { key })).body!['credits_remaining'] as number;

  describe('GET /v1/jobs/{id}', () => {
    it('is free for a job the account already paid for, and logged already_paid', async () => {
      const before = await credits(payer);
      const res = await api(`/v1/jobs/${jobIds[0]}`, { key: payer });
      expect(res.status).toBe(200);
      expect(JobSchema.parse(res.body).id).toBe(jobIds[0]);
      expect(res.headers.get('x-credits-charged')).toBe('0');
      expect(Number(res.headers.get('x-credits-remaining'))).toBe(before);
      expect(await credits(payer)).toBe(before);
      const ledger = LedgerListResponseSchema.parse(
        (await api(`/v1/billing/ledger?job_id=${jobIds[0]}`, { key: payer })).body,
      );
      expect(ledger.data.map((e) => [e.reason, e.credits, e.operation])).toEqual([
        ['already_paid', 0, `GET /v1/jobs/${jobIds[0]}`],
        ['charged', 1, 'POST /v1/jobs/search'],
      ]);
      expect(ledger.data[0]!.request_id).toBe(res.headers.get('x-request-id'));
    });

    it('charges 1 credit to an account that never paid for the job, once', async () => {
      const reader = (await createAccount({ plan: 'pro', credits: 10 })).live_key;
      const first = await api(`/v1/jobs/${jobIds[1]}`, { key: reader });
      expect(first.status).toBe(200);
      expect(first.headers.get('x-credits-charged')).toBe('1');
      expect(first.headers.get('x-credits-remaining')).toBe('9');
      const again = await api(`/v1/jobs/${jobIds[1]}`, { key: reader });
      expect(again.headers.get('x-credits-charged')).toBe('0');
      expect(await credits(reader)).toBe(9);
    });

    it('answers 402 with credits_needed when the account cannot pay', async () => {
      const broke = (await createAccount({ plan: 'pro', credits: 0 })).live_key;
      const res = await api(`/v1/jobs/${jobIds[2]}`, { key: broke });
      expect(res.status).toBe(402);
      const { error } = ErrorEnvelopeSchema.parse(res.body);
      expect(error).toMatchObject({ code: 'insufficient_credits', type: 'billing_error', credits_needed: 1 });
      expect(error.upgrade_url).toMatch(/^https?:\/\//);
    });

    it('answers 404 for an unknown job and 400 for a malformed id', async () => {
      const missing = await api('/v1/jobs/job_doesnotexist0000', { key: payer });
      expect(missing.status).toBe(404);
      expect(ErrorEnvelopeSchema.parse(missing.body).error.code).toBe('not_found');
      const malformed = await api('/v1/jobs/not-a-job-id', { key: payer });
      expect(malformed.status).toBe(400);
      expect(ErrorEnvelopeSchema.parse(malformed.body).error).toMatchObject({ code: 'invalid_request', param: 'id' });
    });
  });

  describe('GET /v1/billing/ledger', () => {
    it('pages newest first without gaps or repeats', async () => {
      const first = LedgerListResponseSchema.parse((await api('/v1/billing/ledger', { key: payer })).body);
      expect(first.data).toHaveLength(50);
      expect(first.next_cursor).toMatch(/^cur_/);
      const second = LedgerListResponseSchema.parse(
        (await api(`/v1/billing/ledger?cursor=${first.next_cursor}`, { key: payer })).body,
      );
      const all = [...first.data, ...second.data];
      expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
      const times = all.map((e) => e.created_at);
      expect([...times].sort().reverse()).toEqual(times);
      const charged = all
        .filter((e) => e.operation === 'POST /v1/jobs/search' && e.reason === 'charged')
        .map((e) => e.job_id);
      expect(new Set(charged)).toEqual(new Set(jobIds));
    });

    it('refuses a cursor that was altered or belongs to another listing', async () => {
      const first = LedgerListResponseSchema.parse((await api('/v1/billing/ledger', { key: payer })).body);
      const tampered = `${first.next_cursor!.slice(0, -2)}xx`;
      const res = await api(`/v1/billing/ledger?cursor=${tampered}`, { key: payer });
      expect(res.status).toBe(400);
      expect(ErrorEnvelopeSchema.parse(res.body).error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
      const other = (await createAccount({ plan: 'pro', credits: 1 })).live_key;
      expect((await api(`/v1/billing/ledger?cursor=${first.next_cursor}`, { key: other })).status).toBe(400);
    });

    it('is empty for a new account and rejects a bad job_id', async () => {
      const fresh = (await createAccount({ plan: 'free', credits: 5 })).live_key;
      expect(LedgerListResponseSchema.parse((await api('/v1/billing/ledger', { key: fresh })).body)).toEqual({
        data: [],
        next_cursor: null,
      });
      expect((await api('/v1/billing/ledger?job_id=nope', { key: fresh })).status).toBe(400);
    });
  });
});
