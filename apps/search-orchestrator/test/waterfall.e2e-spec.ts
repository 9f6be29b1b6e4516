import { DryRunEstimateSchema, FRESHNESS_ORDER, JobSearchResponseSchema } from '@jobs/contracts';
import { api, createAccount, simControl, TopicTap } from '@jobs/e2e-support';

/** Providers that fail or miss the deadline are dropped; the answer is partial and they cost nothing. */
describe('waterfall with failing providers', () => {
  let liveKey: string;

  beforeAll(async () => {
    liveKey = (await createAccount({ plan: 'pro', credits: 1000 })).live_key;
    expect(await simControl('PUT', '/providers/provider_b', { fail: 'timeout' })).toBe(200);
    expect(await simControl('PUT', '/providers/provider_c', { fail: 'error' })).toBe(200);
  });
  afterAll(async () => {
    await simControl('POST', '/providers/reset');
  });

  it('answers 200 partial within timeout_ms, naming each dropped provider and its code', async () => {
    const res = await api('/v1/jobs/search', {
      key: liveKey,
      // provider_b answers only after 60 s whatever timeout_ms is; 4 s leaves the healthy own
      // index (and provider_c's quick 503) room on a loaded machine
      body: {
        filters: { title_or: ['analyst'] },
        waterfall: { strategy: 'max_coverage', providers: ['own_index', 'provider_b', 'provider_c'], timeout_ms: 4000 },
        limit: 10,
      },
    });
    expect(res.status).toBe(200);
    const body = JobSearchResponseSchema.parse(res.body);
    expect(body.metadata.status).toBe('partial');
    expect(body.metadata.providers.failed).toEqual(
      expect.arrayContaining([
        { provider: 'provider_b', code: 'provider_timeout' },
        { provider: 'provider_c', code: 'provider_error' },
      ]),
    );
    expect(body.metadata.providers.failed).toHaveLength(2);
    expect(body.metadata.providers.hit).not.toContain('provider_b');
    expect(body.metadata.providers.hit).not.toContain('provider_c');
    // Only returned jobs are billed.
    expect(body.metadata.credits_charged).toBe(body.data.length - body.metadata.jobs_already_paid);
  });

  it(
    'drops only the partner past timeout_ms: those that answered ' +
      'in time reach dedupe before the deadline and are in the ' +
      'answer',
    async () => {
      // A wave is one message to dedupe; one that waited for its slowest partner was merged only
      // after the deadline, and the deadline sweeper answered without every partner of the wave.
      const tap = new TopicTap(['provider.fetch.requested', 'provider.records.fetched']);
      await tap.start();
      try {
        const res = await api('/v1/jobs/search', {
          key: liveKey,
          body: {
            filters: { title_or: ['analyst'] },
            waterfall: {
              strategy: 'max_coverage',
              providers: ['provider_a', 'provider_b', 'provider_d'],
              timeout_ms: 4000,
            },
            limit: 10,
          },
        });
        expect(res.status).toBe(200);
        const body = JobSearchResponseSchema.parse(res.body);
        expect(body.metadata.status).toBe('partial');
        expect(body.metadata.providers.failed).toEqual([{ provider: 'provider_b', code: 'provider_timeout' }]);
        expect(body.metadata.providers.hit).toEqual(expect.arrayContaining(['provider_a', 'provider_d']));
        expect(
          body.data.some((job) => job.sources.some((s) => s.provider === 'provider_a' || s.provider === 'provider_d')),
        ).toBe(true);

        const requestId = res.headers.get('x-request-id');
        const ofSearch = (topic: string) => (m: { topic: string; headers: Record<string, string> }) =>
          m.topic === topic && m.headers['x-request-id'] === requestId;
        const ask = await tap.waitFor(ofSearch('provider.fetch.requested'));
        const deadlineAt = ask.value['deadline_at'] as number;
        await tap.waitFor(
          (m) => ofSearch('provider.records.fetched')(m) && JSON.stringify(m.value['batches']).includes('"provider_b"'),
        );
        const sentAt = new Map(
          tap.seen
            .filter(ofSearch('provider.records.fetched'))
            .flatMap((m) =>
              (m.value['batches'] as { provider: string }[]).map((b) => [b.provider, m.timestamp] as const),
            ),
        );
        expect([...sentAt.keys()].sort()).toEqual(['provider_a', 'provider_b', 'provider_d']);
        expect(sentAt.get('provider_a')).toBeLessThan(deadlineAt);
        expect(sentAt.get('provider_d')).toBeLessThan(deadlineAt);
        // the abort timer counts on a clock that may fire up to 1 ms early by Date.now()
        expect(sentAt.get('provider_b')).toBeGreaterThanOrEqual(deadlineAt - 1);
      } finally {
        await tap.stop();
      }
    },
  );
});

describe('waterfall strategies', () => {
  let liveKey: string;
  beforeAll(async () => {
    liveKey = (await createAccount({ plan: 'pro', credits: 5000 })).live_key;
  });
  const search = async (
    waterfall: Record<string, unknown>,
    filters: Record<string, unknown> = { title_or: ['engineer'] },
    limit = 5,
  ) => {
    const res = await api('/v1/jobs/search', { key: liveKey, body: { filters, waterfall, limit } });
    expect(res.status).toBe(200);
    return JobSearchResponseSchema.parse(res.body);
  };

  it('cheapest_first stops at the own index when it finds enough', async () => {
    const body = await search({ strategy: 'cheapest_first' });
    expect(body.data).toHaveLength(5);
    expect(body.metadata.providers.tried).toEqual(['own_index']);
  });

  it('cheapest_first goes on to the partners when the own index finds too little', async () => {
    const body = await search({ strategy: 'cheapest_first' }, { title_or: ['engineer'], country_code_or: ['NZ'] }, 100);
    expect(body.metadata.providers.tried.length).toBeGreaterThan(1);
    expect(body.metadata.providers.tried[0]).toBe('own_index');
  });

  it('max_coverage asks every provider of the plan', async () => {
    const body = await search({ strategy: 'max_coverage' });
    expect(body.metadata.providers.tried).toHaveLength(7);
  });

  it('own_only asks the own index only', async () => {
    const body = await search({ strategy: 'own_only' });
    expect(body.metadata.providers.tried).toEqual(['own_index']);
  });

  it('freshest_first asks the sources with the lowest listing lag first', async () => {
    const body = await search({ strategy: 'freshest_first' });
    expect(body.metadata.providers.tried).toEqual([...FRESHNESS_ORDER]);
  });

  it('consensus returns only jobs seen by at least min_sources providers', async () => {
    const body = await search({ strategy: 'consensus', min_sources: 3 }, { title_or: ['manager'] }, 20);
    expect(body.data.length).toBeGreaterThan(0);
    for (const job of body.data) expect(new Set(job.sources.map((s) => s.provider)).size).toBeGreaterThanOrEqual(3);
  });

  it('every returned job satisfies the filters, whatever the providers sent', async () => {
    const body = await search(
      { strategy: 'max_coverage' },
      { title_or: ['engineer'], seniority_or: ['senior'], remote: false, salary_min_gte: 50000 },
      30,
    );
    for (const job of body.data) {
      expect(job.title.toLowerCase()).toContain('engineer');
      expect(job.seniority).toBe('senior');
      expect(job.location.remote).toBe(false);
      expect(job.salary).not.toBeNull();
    }
  });
});

describe('paging a sync search', () => {
  let liveKey: string;
  beforeAll(async () => {
    liveKey = (await createAccount({ plan: 'pro', credits: 5000 })).live_key;
  });
  const body = { filters: { title_or: ['designer'] }, waterfall: { strategy: 'max_coverage' }, limit: 10 };

  it('pages one result set without gaps or repeats, each page billed on its own', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await api('/v1/jobs/search', { key: liveKey, body: cursor ? { ...body, cursor } : body });
      expect(res.status).toBe(200);
      const page = JobSearchResponseSchema.parse(res.body);
      expect(page.data.length).toBeLessThanOrEqual(10);
      expect(page.metadata.credits_charged).toBe(page.data.length);
      seen.push(...page.data.map((j) => j.id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor && pages < 6);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('refuses a cursor with a changed request, or an altered cursor', async () => {
    const first = JobSearchResponseSchema.parse((await api('/v1/jobs/search', { key: liveKey, body })).body);
    expect(first.next_cursor).not.toBeNull();
    const changed = await api('/v1/jobs/search', {
      key: liveKey,
      body: { ...body, limit: 20, cursor: first.next_cursor },
    });
    expect(changed.status).toBe(400);
    expect((changed.body as { error: { param: string } }).error.param).toBe('cursor');
    const altered = await api('/v1/jobs/search', {
      key: liveKey,
      body: { ...body, cursor: `${first.next_cursor!.slice(0, -3)}abc` },
    });
    expect(altered.status).toBe(400);
  });
});

describe('dry_run', () => {
  it('answers an estimate and charges nothing', async () => {
    const key = (await createAccount({ plan: 'pro', credits: 100 })).live_key;
    const res = await api('/v1/jobs/search', {
      key,
      body: { filters: { title_or: ['engineer'] }, waterfall: { strategy: 'max_coverage' }, limit: 10, dry_run: true },
    });
    expect(res.status).toBe(200);
    const body = DryRunEstimateSchema.parse(res.body);
    expect(body.request_id).toBe(res.headers.get('x-request-id'));
    expect(body.estimate.providers_planned).toHaveLength(7);
    expect(body.estimate.expected_unique_jobs_range.min).toBeGreaterThan(0);
    expect(body.estimate.expected_unique_jobs_range.max).toBeGreaterThanOrEqual(
      body.estimate.expected_unique_jobs_range.min,
    );
    // a new account has paid for none of the (many) matches: one page of 10 costs 10
    expect(body.estimate.credits_range).toEqual({ min: 10, max: 10 });
    expect(res.headers.get('x-credits-charged')).toBe('0');
    expect((await api('/v1/account', { key })).body!['credits_remaining']).toBe(100);
  });
});
