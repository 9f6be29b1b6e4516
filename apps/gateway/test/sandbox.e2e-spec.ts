import {
  DryRunEstimateSchema,
  ErrorEnvelopeSchema,
  JobSchema,
  JobSearchResponseSchema,
  type JobSearchResponse,
} from '@jobs/contracts';
import { fromAddress } from './client-address.js';
import { api, createAccount, TopicTap } from './stack.js';

/**
 * The keyless sandbox answers fixed illustrative data in the live shapes
 * whatever is sent (interface.md), validates like the live endpoint and charges nothing; a test
 * key gets the same fixed page from `POST /v1/jobs/search`.
 */
describe('POST /v1/sandbox/jobs/search', () => {
  const tap = new TopicTap(['search.requested']);
  // Its own client address: the sandbox's rate limit counts per address.
  const call = fromAddress('127.0.0.41');
  const sandbox = (body: unknown, headers?: Record<string, string>) =>
    call('/v1/sandbox/jobs/search', { body, ...(headers ? { headers } : {}) });
  const page = (res: { body: unknown }): JobSearchResponse => JobSearchResponseSchema.parse(res.body);
  /** The page's jobs as the bytes they were sent as (the server's key order is kept by JSON.parse). */
  const dataBytes = (res: { body: unknown }) => JSON.stringify(page(res).data);

  beforeAll(() => tap.start());
  afterAll(() => tap.stop());

  it(
    'answers without a key: one final page of the fixed jobs, ' +
      'full Job shape, fictional companies, nothing charged',
    async () => {
      const res = await sandbox({});
      expect(res.status).toBe(200);
      const body = page(res);
      expect(body.data).toHaveLength(40);
      for (const job of body.data) expect(JobSchema.safeParse(job).success).toBe(true);
      expect(body.data.every((job) => job.company.domain === null || job.company.domain.endsWith('.example'))).toBe(
        true,
      );
      expect(new Set(body.data.flatMap((job) => job.sources.map((s) => s.provider))).size).toBe(7);
      expect(new Set(body.data.map((job) => job.salary?.currency).filter(Boolean)).size).toBeGreaterThan(3);
      expect(body.data.some((job) => job.status === 'closed' && job.closed_reason !== null)).toBe(true);
      expect(body.next_cursor).toBeNull();
      expect(body.metadata).toMatchObject({
        status: 'complete',
        credits_charged: 0,
        jobs_already_paid: 0,
        credits_remaining: 0,
      });
      expect(body.metadata.request_id).toBe(res.headers.get('x-request-id'));
      expect(res.headers.get('x-credits-charged')).toBe('0');
      expect(res.headers.get('x-credits-remaining')).toBe('0');
    },
  );

  it('ignores an Authorization header it does not need, even a bad one', async () => {
    const res = await sandbox({ limit: 1 }, { authorization: 'Bearer nonsense' });
    expect(res.status).toBe(200);
    expect(dataBytes(res)).toBe(dataBytes(await sandbox({})));
  });

  it('validates the body exactly like the live endpoint', async () => {
    const tooMany = await sandbox({ limit: 101 });
    expect(tooMany.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(tooMany.body).error).toMatchObject({ code: 'invalid_request', param: 'limit' });
    const none = await sandbox({ limit: 0 });
    expect(none.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(none.body).error).toMatchObject({ code: 'invalid_request', param: 'limit' });
    const typo = await sandbox({ filters: { titel_or: ['engineer'] } });
    expect(typo.status).toBe(400);
    const error = ErrorEnvelopeSchema.parse(typo.body).error;
    expect(error).toMatchObject({
      code: 'unknown_filter',
      param: 'filters.titel_or',
      request_id: typo.headers.get('x-request-id'),
    });
    expect(error.message).toContain('title_or');
    const unknownTop = await sandbox({ filter: {} });
    expect(unknownTop.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(unknownTop.body).error).toMatchObject({
      code: 'invalid_request',
      param: 'filter',
    });
    const timeout = await sandbox({ waterfall: { timeout_ms: 999 } });
    expect(timeout.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(timeout.body).error).toMatchObject({
      code: 'invalid_request',
      param: 'waterfall.timeout_ms',
    });
    const badCursor = await sandbox({ cursor: 'not-a-cursor' });
    expect(badCursor.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(badCursor.body).error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
    const badDryRun = await sandbox({ dry_run: 'yes' });
    expect(badDryRun.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(badDryRun.body).error).toMatchObject({
      code: 'invalid_request',
      param: 'dry_run',
    });
    for (const res of [tooMany, none, typo, unknownTop, timeout, badCursor, badDryRun]) {
      expect(res.body).not.toHaveProperty('data');
      expect(res.headers.get('x-credits-charged')).toBeNull();
    }
  });

  it(
    'answers every valid body, whatever its filters, waterfall, ' + 'limit or cursor, with byte-identical data',
    async () => {
      const reference = await sandbox({});
      const bodies = [
        { filters: { title_or: ['engineer'], country_code_or: ['DE', 'SE', 'JP'], remote: true }, limit: 3 },
        { filters: { salary_min_gte: 150000, seniority_or: ['senior'], include_closed: false }, limit: 100 },
        { filters: { title_or: ['astronaut'] }, limit: 1 },
        { filters: { company_domain_or: ['acme-robotics.example'] }, waterfall: { strategy: 'own_only' } },
        { waterfall: { strategy: 'consensus', min_sources: 3 }, limit: 50, dry_run: false },
        // A well-formed cursor is accepted and ignored: the sandbox never issues one.
        { filters: { include_closed: true }, limit: 15, cursor: 'cur_neverissuedbythesandbox' },
      ];
      for (const body of bodies) {
        const res = await sandbox(body);
        expect(res.status).toBe(200);
        expect(dataBytes(res)).toBe(dataBytes(reference));
        const { request_id, ...metadata } = page(res).metadata;
        const { request_id: referenceId, ...referenceMetadata } = page(reference).metadata;
        expect(request_id).not.toBe(referenceId);
        expect(metadata).toEqual(referenceMetadata);
        expect(page(res).next_cursor).toBeNull();
        expect(res.headers.get('x-credits-charged')).toBe('0');
      }
    },
  );

  it('answers dry_run with one fixed estimate of that page, free, whatever else is sent', async () => {
    const dry = await sandbox({ dry_run: true });
    expect(dry.status).toBe(200);
    const estimate = DryRunEstimateSchema.parse(dry.body);
    expect(estimate.estimate).toEqual({
      expected_unique_jobs_range: { min: 40, max: 40 },
      providers_planned: page(await sandbox({})).metadata.providers.tried,
      credits_range: { min: 0, max: 0 },
    });
    expect(estimate.request_id).toBe(dry.headers.get('x-request-id'));
    expect(dry.headers.get('x-credits-charged')).toBe('0');
    const other = await sandbox({
      filters: { title_or: ['astronaut'] },
      waterfall: { providers: ['provider_e'] },
      limit: 1,
      dry_run: true,
    });
    expect(other.status).toBe(200);
    expect(DryRunEstimateSchema.parse(other.body).estimate).toEqual(estimate.estimate);
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

    it(
      'POST /v1/jobs/search answers the same fixed page in the live ' +
        'shape, never charged and never entering the pipeline',
      async () => {
        const body = { filters: { title_or: ['engineer'] }, limit: 10 };
        const test = await api('/v1/jobs/search', { key: keys.test_key, body });
        expect(test.status).toBe(200);
        const answer = page(test);
        expect(JSON.stringify(answer.data)).toBe(dataBytes(await sandbox({})));
        expect(answer.next_cursor).toBeNull();
        expect(answer.metadata).toMatchObject({ credits_charged: 0, jobs_already_paid: 0, credits_remaining: 500 });
        expect(test.headers.get('x-credits-charged')).toBe('0');
        expect(test.headers.get('x-credits-remaining')).toBe('500');

        // Other filters, another limit and a well-formed cursor (ignored): the very same page.
        const other = await api('/v1/jobs/search', {
          key: keys.test_key,
          body: {
            filters: { country_code_or: ['GB'], remote: false },
            limit: 2,
            cursor: 'cur_neverissuedbythesandbox',
          },
        });
        expect(other.status).toBe(200);
        expect(JSON.stringify(page(other).data)).toBe(JSON.stringify(answer.data));
        expect(page(other).next_cursor).toBeNull();

        const dry = await api('/v1/jobs/search', { key: keys.test_key, body: { ...body, dry_run: true } });
        expect(dry.status).toBe(200);
        expect(DryRunEstimateSchema.parse(dry.body).estimate).toEqual(
          DryRunEstimateSchema.parse((await sandbox({ dry_run: true })).body).estimate,
        );
        expect(dry.headers.get('x-credits-charged')).toBe('0');

        // The live key still goes through the pipeline: once it has been seen there, the test
        // key's and the sandbox's requests (sent earlier) would have been seen too.
        const live = await api('/v1/jobs/search', {
          key: keys.live_key,
          body: { ...body, waterfall: { providers: ['own_index'] } },
        });
        expect(live.status).toBe(200);
        await tap.waitFor((m) => m.headers['x-request-id'] === live.headers.get('x-request-id'));
        const seen = new Set(tap.seen.map((m) => m.headers['x-request-id']));
        expect(seen.has(test.headers.get('x-request-id')!)).toBe(false);
        expect(seen.has(other.headers.get('x-request-id')!)).toBe(false);
        expect(seen.has(dry.headers.get('x-request-id')!)).toBe(false);

        const account = await api('/v1/account', { key: keys.test_key });
        expect(account.status).toBe(200);
        const liveCharged = Number(live.headers.get('x-credits-charged'));
        expect(account.body).toMatchObject({ plan: 'pro', credits_remaining: 500 - liveCharged });
      },
    );

    it('validates like the live endpoint', async () => {
      const res = await api('/v1/jobs/search', { key: keys.test_key, body: { filters: { salary_min: 1 } } });
      expect(res.status).toBe(400);
      expect(ErrorEnvelopeSchema.parse(res.body).error).toMatchObject({
        code: 'unknown_filter',
        param: 'filters.salary_min',
      });
      const tooMany = await api('/v1/jobs/search', { key: keys.test_key, body: { limit: 101 } });
      expect(tooMany.status).toBe(400);
      expect(ErrorEnvelopeSchema.parse(tooMany.body).error).toMatchObject({ code: 'invalid_request', param: 'limit' });
      const badCursor = await api('/v1/jobs/search', { key: keys.test_key, body: { cursor: 'not-a-cursor' } });
      expect(badCursor.status).toBe(400);
      expect(ErrorEnvelopeSchema.parse(badCursor.body).error).toMatchObject({
        code: 'invalid_request',
        param: 'cursor',
      });
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
