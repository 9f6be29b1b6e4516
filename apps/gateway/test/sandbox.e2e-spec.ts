import { DryRunEstimateSchema, ErrorEnvelopeSchema, JobSchema, JobSearchResponseSchema, type JobSearchResponse } from '@jobs/contracts';
import { fromAddress } from './client-address.js';
import { api, createAccount, TopicTap } from './stack.js';

/**
 * Item 7 of issue 3: the keyless sandbox answers fixed illustrative data in the live shapes,
 * validates like the live endpoint, pages with tamper-evident cursors and charges nothing;
 * a test key gets the same data from `POST /v1/jobs/search`.
 */
describe('POST /v1/sandbox/jobs/search', () => {
  const tap = new TopicTap(['search.requested']);
  // Its own client address: the sandbox's rate limit counts per address.
  const call = fromAddress('127.0.0.41');
  const sandbox = (body: unknown, headers?: Record<string, string>) => call('/v1/sandbox/jobs/search', { body, ...(headers ? { headers } : {}) });
  const page = (res: { body: unknown }): JobSearchResponse => JobSearchResponseSchema.parse(res.body);

  beforeAll(() => tap.start());
  afterAll(() => tap.stop());

  it('answers without a key: full Job shape, fictional companies, nothing charged', async () => {
    const res = await sandbox({});
    expect(res.status).toBe(200);
    const body = page(res);
    expect(body.data).toHaveLength(25);
    for (const job of body.data) expect(JobSchema.safeParse(job).success).toBe(true);
    expect(body.data.every((job) => job.company.domain === null || job.company.domain.endsWith('.example'))).toBe(true);
    expect(new Set(body.data.flatMap((job) => job.sources.map((s) => s.provider))).size).toBeGreaterThan(3);
    expect(new Set(body.data.map((job) => job.salary?.currency).filter(Boolean)).size).toBeGreaterThan(3);
    expect(body.metadata).toMatchObject({ status: 'complete', credits_charged: 0, jobs_already_paid: 0, credits_remaining: 0 });
    expect(body.metadata.request_id).toBe(res.headers.get('x-request-id'));
    expect(res.headers.get('x-credits-charged')).toBe('0');
    expect(res.headers.get('x-credits-remaining')).toBe('0');
  });

  it('ignores an Authorization header it does not need, even a bad one', async () => {
    const res = await sandbox({ limit: 1 }, { authorization: 'Bearer nonsense' });
    expect(res.status).toBe(200);
    expect(page(res).data).toHaveLength(1);
  });

  it('validates the body exactly like the live endpoint', async () => {
    const tooMany = await sandbox({ limit: 101 });
    expect(tooMany.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(tooMany.body).error).toMatchObject({ code: 'invalid_request', param: 'limit' });
    const typo = await sandbox({ filters: { titel_or: ['engineer'] } });
    expect(typo.status).toBe(400);
    const error = ErrorEnvelopeSchema.parse(typo.body).error;
    expect(error).toMatchObject({ code: 'unknown_filter', param: 'filters.titel_or', request_id: typo.headers.get('x-request-id') });
    expect(error.message).toContain('title_or');
    const unknownTop = await sandbox({ filter: {} });
    expect(ErrorEnvelopeSchema.parse(unknownTop.body).error).toMatchObject({ code: 'invalid_request', param: 'filter' });
    const timeout = await sandbox({ waterfall: { timeout_ms: 999 } });
    expect(ErrorEnvelopeSchema.parse(timeout.body).error).toMatchObject({ code: 'invalid_request', param: 'waterfall.timeout_ms' });
  });

  it('applies the filters to the fixed data, deterministically', async () => {
    const body = { filters: { title_or: ['engineer'], country_code_or: ['DE', 'SE', 'JP'], remote: true }, limit: 100 };
    const first = page(await sandbox(body));
    expect(first.data.length).toBeGreaterThan(0);
    for (const job of first.data) {
      expect(job.title.toLowerCase()).toContain('engineer');
      expect(['DE', 'SE', 'JP']).toContain(job.location.country_code);
      expect(job.location.remote).toBe(true);
    }
    const again = page(await sandbox(body));
    expect(again.data).toEqual(first.data);

    const rich = page(await sandbox({ filters: { salary_min_gte: 150000, seniority_or: ['senior'] }, limit: 100 }));
    expect(rich.data.length).toBeGreaterThan(0);
    expect(rich.data.every((job) => job.seniority === 'senior' && job.salary !== null)).toBe(true);

    const acme = page(await sandbox({ filters: { company_domain_or: ['acme-robotics.example'] }, limit: 100 }));
    expect(acme.data.length).toBeGreaterThan(1);
    expect(acme.data.every((job) => job.company.name === 'Acme Robotics')).toBe(true);
  });

  it('returns closed jobs only with include_closed', async () => {
    const open = page(await sandbox({ limit: 100 }));
    const all = page(await sandbox({ filters: { include_closed: true }, limit: 100 }));
    expect(open.data.some((job) => job.status === 'closed')).toBe(false);
    const closed = all.data.filter((job) => job.status === 'closed');
    expect(closed.length).toBeGreaterThan(0);
    expect(closed.every((job) => job.closed_reason !== null)).toBe(true);
    expect(all.data.length).toBe(open.data.length + closed.length);
  });

  it('pages with signed cursors to the end, and the dry run counts the same jobs', async () => {
    const request = { filters: { include_closed: true }, limit: 15 };
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await sandbox({ ...request, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      const body = page(res);
      expect(body.data.length).toBeLessThanOrEqual(15);
      ids.push(...body.data.map((job) => job.id));
      cursor = body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(cursor).toBeNull();
    expect(new Set(ids).size).toBe(ids.length);

    const dry = await sandbox({ ...request, dry_run: true });
    expect(dry.status).toBe(200);
    const estimate = DryRunEstimateSchema.parse(dry.body);
    expect(estimate.estimate.expected_unique_jobs_range).toEqual({ min: ids.length, max: ids.length });
    expect(estimate.estimate.credits_range).toEqual({ min: 0, max: 0 });
    expect(estimate.request_id).toBe(dry.headers.get('x-request-id'));
    expect(dry.headers.get('x-credits-charged')).toBe('0');
  });

  it('refuses an altered cursor and a cursor sent with another search', async () => {
    const first = page(await sandbox({ filters: { title_or: ['engineer'] }, limit: 2 }));
    const cursor = first.next_cursor!;
    expect(cursor).toMatch(/^cur_/);
    const altered = await sandbox({ filters: { title_or: ['engineer'] }, limit: 2, cursor: `${cursor.slice(0, -1)}${cursor.endsWith('9') ? '8' : '9'}` });
    expect(altered.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(altered.body).error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
    const foreign = await sandbox({ filters: { title_or: ['data'] }, limit: 2, cursor });
    expect(foreign.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(foreign.body).error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
    const next = await sandbox({ filters: { title_or: ['engineer'] }, limit: 2, cursor });
    expect(next.status).toBe(200);
    expect(page(next).data[0]?.id).not.toBe(first.data[0]?.id);
  });

  it('is rate limited per client address, not globally', async () => {
    const first = await sandbox({ limit: 1 });
    const limit = Number(first.headers.get('ratelimit-limit'));
    expect(limit).toBeGreaterThan(0);
    expect(Number(first.headers.get('ratelimit-remaining'))).toBeLessThan(limit);

    // Another address exhausts its own window ...
    const other = fromAddress('127.0.0.42');
    let refused: Awaited<ReturnType<typeof other>> | undefined;
    for (let i = 0; i <= limit && !refused; i++) {
      const res = await other('/v1/sandbox/jobs/search', { body: { limit: 1 } });
      if (res.status === 429) refused = res;
    }
    expect(refused).toBeDefined();
    expect(ErrorEnvelopeSchema.parse(refused!.body).error.code).toBe('rate_limited');
    expect(refused!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused!.body).not.toHaveProperty('data');
    // ... and this one is still served.
    expect((await sandbox({ limit: 1 })).status).toBe(200);
  });

  describe('with a test key', () => {
    let keys: { live_key: string; test_key: string };

    beforeAll(async () => {
      keys = await createAccount({ plan: 'pro', credits: 500 });
    });

    it('POST /v1/jobs/search answers the sandbox data in the live shape, never charged and never entering the pipeline', async () => {
      const body = { filters: { title_or: ['engineer'] }, limit: 10 };
      const test = await api('/v1/jobs/search', { key: keys.test_key, body });
      expect(test.status).toBe(200);
      const answer = page(test);
      const keyless = page(await sandbox(body));
      expect(answer.data).toEqual(keyless.data);
      expect(answer.next_cursor).not.toBeNull();
      expect(answer.metadata).toMatchObject({ credits_charged: 0, jobs_already_paid: 0, credits_remaining: 500 });
      expect(test.headers.get('x-credits-charged')).toBe('0');
      expect(test.headers.get('x-credits-remaining')).toBe('500');

      // Its cursor pages on, exactly like the keyless one.
      const next = page(await api('/v1/jobs/search', { key: keys.test_key, body: { ...body, cursor: answer.next_cursor } }));
      expect(next.data.map((job) => job.id)).toEqual(page(await sandbox({ ...body, cursor: keyless.next_cursor })).data.map((job) => job.id));

      const dry = await api('/v1/jobs/search', { key: keys.test_key, body: { ...body, dry_run: true } });
      expect(DryRunEstimateSchema.parse(dry.body).estimate.credits_range).toEqual({ min: 0, max: 0 });

      // The live key still goes through the pipeline: once it has been seen there, the test
      // key's and the sandbox's requests (sent earlier) would have been seen too.
      const live = await api('/v1/jobs/search', { key: keys.live_key, body: { ...body, waterfall: { providers: ['own_index'] } } });
      expect(live.status).toBe(200);
      await tap.waitFor((m) => m.headers['x-request-id'] === live.headers.get('x-request-id'));
      const seen = new Set(tap.seen.map((m) => m.headers['x-request-id']));
      expect(seen.has(test.headers.get('x-request-id')!)).toBe(false);
      expect(seen.has(dry.headers.get('x-request-id')!)).toBe(false);

      const account = await api('/v1/account', { key: keys.test_key });
      expect(account.status).toBe(200);
      const liveCharged = Number(live.headers.get('x-credits-charged'));
      expect(account.body).toMatchObject({ plan: 'pro', credits_remaining: 500 - liveCharged });
    });

    it('validates like the live endpoint', async () => {
      const res = await api('/v1/jobs/search', { key: keys.test_key, body: { filters: { salary_min: 1 } } });
      expect(res.status).toBe(400);
      expect(ErrorEnvelopeSchema.parse(res.body).error).toMatchObject({ code: 'unknown_filter', param: 'filters.salary_min' });
    });
  });
});

describe('a test key on the other endpoints', () => {
  it('reads sandbox jobs for free and sees an empty ledger', async () => {
    const account = await createAccount({ plan: 'pro', credits: 10 });
    const sandboxPage = await api('/v1/jobs/search', { key: account.test_key, body: { limit: 1 } });
    const jobId = (sandboxPage.body!['data'] as Array<{ id: string }>)[0]!.id;
    const job = await api(`/v1/jobs/${jobId}`, { key: account.test_key });
    expect(job.status).toBe(200);
    expect(job.body!['id']).toBe(jobId);
    expect(job.headers.get('x-credits-charged')).toBe('0');
    expect((await api('/v1/jobs/job_notinthesandbox', { key: account.test_key })).status).toBe(404);
    expect((await api('/v1/billing/ledger', { key: account.test_key })).body).toEqual({ data: [], next_cursor: null });
    expect((await api('/v1/account', { key: account.live_key })).body!['credits_remaining']).toBe(10);
  });
});
