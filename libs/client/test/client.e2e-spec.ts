import {
  addWorldCompany,
  addWorldJob,
  admin,
  createAccount,
  Receiver,
  stack,
  uniqueWord,
  type ProviderSlug,
} from '@jobs/e2e-support';
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  InsufficientCreditsError,
  InvalidRequestError,
  JobsClient,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  verifyWebhook,
  type FetchLike,
  type Job,
  type JobSearchResponse,
  type RetryEvent,
} from '../src/index.js';

/**
 * The client against the running stack, over real HTTP: paging a search to its end,
 * a real 429 waited out, a POST whose answer was lost retried with its Idempotency-Key and charged
 * once, typed errors, async search results, watches, the event feed and a real webhook delivery
 * verified with the client's helper.
 */

const realFetch: FetchLike = (url, init) => fetch(url, init as RequestInit);

function clientFor(
  apiKey: string | undefined,
  extra: Partial<ConstructorParameters<typeof JobsClient>[0]> = {},
): JobsClient {
  return new JobsClient({ baseUrl: stack.baseUrl, ...(apiKey ? { apiKey } : {}), fetch: realFetch, ...extra });
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

async function secretOf(accountId: string, url: string): Promise<string> {
  const answer = await admin('GET', `/accounts/${accountId}/webhook-secret?url=${encodeURIComponent(url)}`);
  return String(answer!['secret']);
}

/** Partner listings only, so no refresh pass of the own crawler is needed before searching. */
const LISTINGS: ProviderSlug[][] = [
  ['provider_a'],
  ['provider_c'],
  ['provider_a', 'provider_c'],
  ['provider_b'],
  ['provider_c'],
];

describe('JobsClient against the running stack', () => {
  const word = uniqueWord();
  const titles: string[] = [];
  const search = {
    filters: { title_or: [word] },
    waterfall: {
      strategy: 'max_coverage' as const,
      providers: ['provider_a', 'provider_b', 'provider_c'] as ProviderSlug[],
    },
  };

  let searched: Promise<Job[]> | undefined;
  /**
   * The openings as a live search finds them (once, by an account of its own): the store knows them and their company.
   */
  const searchedOnce = () =>
    (searched ??= createAccount({ plan: 'pro', credits: 100 }).then(({ live_key }) =>
      collect(clientFor(live_key).jobs.searchAll({ ...search, limit: 100 })),
    ));

  beforeAll(async () => {
    const company = await addWorldCompany();
    for (const providers of LISTINGS)
      titles.push((await addWorldJob({ providers, shared_word: word, company_domain: company })).title);
  }, 120_000);

  it('sandbox without a key, test key with the same shapes, neither charged', async () => {
    const keyless = clientFor(undefined);
    expect(keyless.mode).toBe('keyless');
    const page = await keyless.sandbox.search({ filters: { title_or: ['engineer'] }, limit: 3 });
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.metadata.credits_charged).toBe(0);
    expect(page.$response.credits).toEqual({ charged: 0, remaining: 0 });
    const estimate = await keyless.sandbox.dryRun({ filters: {} });
    expect(estimate.estimate.expected_unique_jobs_range.min).toBeGreaterThan(0);
    expect((await rejection(keyless.account())).code).toBe('unauthorized');

    const { test_key } = await createAccount({ plan: 'pro', credits: 10 });
    const test = clientFor(test_key);
    expect(test.mode).toBe('test');
    const testPage = await test.jobs.search({ limit: 2 });
    expect(testPage.$response.credits).toEqual({ charged: 0, remaining: 10 });
    expect(testPage.data.map((j) => j.id)).toEqual(page.data.map((j) => j.id));
    expect(testPage.$response.rateLimit?.limit).toBeGreaterThan(0);
  });

  it('pages a live search to its end: every match once, each page billed once, credit headers on each', async () => {
    const { live_key, account_id } = await createAccount({ plan: 'pro', credits: 100 });
    const client = clientFor(live_key);
    const pages: JobSearchResponse[] = [];
    const charges: number[] = [];
    const remaining: number[] = [];
    for await (const page of client.jobs.searchPages(
      { ...search, limit: 2 },
      { idempotencyKeyPrefix: `walk-${word}` },
    )) {
      expect(page.data.length).toBeLessThanOrEqual(2);
      expect(page.$response.credits.charged).toBe(page.metadata.credits_charged);
      expect(page.$response.credits.remaining).toBe(page.metadata.credits_remaining);
      expect(page.$response.idempotencyKey).toBe(`walk-${word}:${pages.length + 1}`);
      pages.push(page);
      charges.push(page.$response.credits.charged);
      remaining.push(page.$response.credits.remaining);
    }
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.at(-1)!.next_cursor).toBeNull();
    const seen = pages.flatMap((p) => p.data);
    expect(seen.map((j) => j.title.toLowerCase()).sort()).toEqual(titles.map((t) => t.toLowerCase()).sort());
    expect(new Set(seen.map((j) => j.id)).size).toBe(titles.length);
    expect(charges.reduce((a, b) => a + b, 0)).toBe(titles.length);
    expect(remaining.at(-1)).toBe(100 - titles.length);

    // the same walk again with the same key prefix replays every page: nothing is charged again
    const again = await collect(
      client.jobs.searchPages({ ...search, limit: 2 }, { idempotencyKeyPrefix: `walk-${word}` }),
    );
    expect(again.every((p) => p.$response.replayed)).toBe(true);
    expect((await client.account()).credits_remaining).toBe(100 - titles.length);

    // the ledger (all pages) holds one charge per job; a job read again is free
    const ledger = await collect(client.ledger.iterate());
    expect(
      ledger
        .filter((l) => l.reason === 'charged')
        .map((l) => l.job_id)
        .sort(),
    ).toEqual(seen.map((j) => j.id).sort());
    const job = await client.jobs.get(seen[0]!.id);
    expect(job.id).toBe(seen[0]!.id);
    expect(job.$response.credits).toEqual({ charged: 0, remaining: 100 - titles.length });
    const forJob = await collect(client.ledger.iterate({ job_id: seen[0]!.id }));
    expect(forJob.map((l) => l.reason).sort()).toEqual(['already_paid', 'charged']);

    // a company profile is billable too: 1 credit per request
    const profile = await client.companies.get(seen[0]!.company.domain!);
    expect(profile.company.domain).toBe(seen[0]!.company.domain);
    expect(profile.$response.credits).toEqual({ charged: 1, remaining: 100 - titles.length - 1 });
    expect(account_id).toMatch(/^acc_/);
  });

  it(
    'retries a POST whose answer was lost with the same ' + 'Idempotency-Key: the replay is not charged twice',
    async () => {
      const { live_key } = await createAccount({ plan: 'pro', credits: 50 });
      const sentKeys: string[] = [];
      let dropped = 0;
      // the request reaches the service and runs; its answer is lost on the way back
      const losingFetch: FetchLike = async (url, init) => {
        sentKeys.push(init.headers['idempotency-key'] ?? '');
        const response = await realFetch(url, init);
        if (init.method === 'POST' && dropped === 0) {
          dropped += 1;
          await response.text();
          throw new TypeError('fetch failed: socket hang up (simulated after the answer)');
        }
        return response;
      };
      const retries: RetryEvent[] = [];
      const client = clientFor(live_key, {
        fetch: losingFetch,
        onRetry: (e) => retries.push(e),
        retry: { baseDelayMs: 50 },
      });
      const page = await client.jobs.search({ ...search, limit: 5 });
      expect(retries).toMatchObject([{ reason: 'network_error', status: null }]);
      expect(sentKeys).toHaveLength(2);
      expect(sentKeys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(sentKeys[1]).toBe(sentKeys[0]);
      expect(page.$response.attempts).toBe(2);
      expect(page.$response.replayed).toBe(true);
      expect(page.metadata.credits_charged).toBe(titles.length);

      const account = await client.account();
      expect(account.credits_remaining).toBe(50 - titles.length);
      const ledger = await collect(client.ledger.iterate());
      const charged = ledger.filter((l) => l.reason === 'charged');
      expect(charged).toHaveLength(titles.length);
      expect(new Set(charged.map((l) => l.request_id))).toEqual(new Set([page.metadata.request_id]));

      // a second call by the caller with the same key replays the same answer, charged nothing
      const replay = await client.jobs.search({ ...search, limit: 5 }, { idempotencyKey: sentKeys[0] });
      expect(replay.$response.replayed).toBe(true);
      expect(replay.metadata.request_id).toBe(page.metadata.request_id);
      expect((await client.account()).credits_remaining).toBe(50 - titles.length);
    },
  );

  it('waits out a real 429 (Retry-After) and then succeeds', async () => {
    const { live_key } = await admin(
      'POST',
      '/accounts',
      { plan: 'pro', credits: 10, rate_limit: { limit: 2, window_seconds: 10 } },
      201,
    ).then((b) => b as { live_key: string });
    const retries: RetryEvent[] = [];
    const client = clientFor(live_key, { onRetry: (e) => retries.push(e) });
    const impatient = clientFor(live_key, { maxRetries: 0 });
    // use the window up; the next request is refused
    await client.account();
    await client.account();
    const refused = await rejection(impatient.account());
    expect(refused).toBeInstanceOf(RateLimitError);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited', type: 'rate_limit_error', attempts: 1 });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.rateLimit?.remaining).toBe(0);
    expect(refused.request_id).toMatch(/^req_/);

    const started = Date.now();
    const account = await client.account();
    expect(account.plan).toBe('pro');
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(retries[0]).toMatchObject({ reason: 'rate_limited', status: 429 });
    expect(retries[0]!.delayMs).toBe((retries[0]!.error as RateLimitError).retryAfterSeconds! * 1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(retries[0]!.delayMs - 50);
    expect(account.$response.attempts).toBe(retries.length + 1);
    expect(account.$response.rateLimit?.limit).toBe(2);
  });

  it('throws typed errors on 400, 401, 402, 403, 404 and 409, without retrying', async () => {
    const retries: RetryEvent[] = [];
    const onRetry = (e: RetryEvent) => retries.push(e);
    const starter = clientFor((await createAccount({ plan: 'starter', credits: 5 })).live_key, { onRetry });

    const tooMany = await rejection(starter.jobs.search({ limit: 1000 }));
    expect(tooMany).toBeInstanceOf(InvalidRequestError);
    expect(tooMany).toMatchObject({
      status: 400,
      code: 'invalid_request',
      type: 'invalid_request_error',
      param: 'limit',
      attempts: 1,
    });
    expect(tooMany.request_id).toBe(tooMany.headers.get('x-request-id'));

    const unknown = await rejection(starter.jobs.search({ filters: { titel_or: ['x'] } as never }));
    expect(unknown).toMatchObject({ status: 400, code: 'unknown_filter', param: 'filters.titel_or' });

    const unauthorized = await rejection(clientFor('svc_live_doesnotexist0000000000000000', { onRetry }).account());
    expect(unauthorized).toBeInstanceOf(AuthenticationError);
    expect(unauthorized).toMatchObject({ status: 401, code: 'unauthorized', type: 'authentication_error' });

    const plan = await rejection(
      starter.watches.create({ type: 'company', domain: 'acme.example', webhook_url: 'https://hooks.example/x' }),
    );
    expect(plan).toBeInstanceOf(PermissionDeniedError);
    expect(plan).toMatchObject({ status: 403, code: 'plan_required', required_plan: 'pro' });

    const missing = await rejection(starter.jobs.get('job_doesnotexist00000'));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', type: 'not_found_error' });

    // a company the partners listed (searched once by another account), read by a pro account without credits
    const domain = (await searchedOnce())[0]!.company.domain!;
    const broke = clientFor((await createAccount({ plan: 'pro', credits: 0 })).live_key, { onRetry });
    const noCredits = await rejection(broke.companies.get(domain));
    expect(noCredits).toBeInstanceOf(InsufficientCreditsError);
    expect(noCredits).toMatchObject({ status: 402, code: 'insufficient_credits', type: 'billing_error' });
    expect(noCredits.credits_needed).toBeGreaterThanOrEqual(1);
    expect(noCredits.upgrade_url).toMatch(/^https?:/);
    expect(plan.upgrade_url).toBe(noCredits.upgrade_url);
    // PUBLIC_PRICING_URL, or by default the billing guide on this host: never a dead placeholder
    expect(noCredits.upgrade_url).not.toMatch(/\.example\b/);
    if (noCredits.upgrade_url!.startsWith(stack.baseUrl)) {
      const pricing = await fetch(noCredits.upgrade_url!);
      expect(pricing.status).toBe(200);
      expect(await pricing.text()).toContain(`id="${new URL(noCredits.upgrade_url!).hash.slice(1)}"`);
    }

    const key = `conflict-${word}`;
    const test = clientFor((await createAccount({ plan: 'pro', credits: 1 })).test_key, { onRetry });
    await test.jobs.search({ limit: 2 }, { idempotencyKey: key });
    const conflict = await rejection(test.jobs.search({ limit: 3 }, { idempotencyKey: key }));
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict).toMatchObject({ status: 409, code: 'idempotency_conflict', idempotencyKey: key });

    expect(retries).toEqual([]);
  });

  describe('async searches, watches, events and a real webhook delivery', () => {
    const receiver = new Receiver();
    beforeAll(() => receiver.start());
    afterAll(() => receiver.stop());

    it(
      'collects an async search, announces it by a signed webhook ' + 'the helper verifies, and feeds it to /events',
      async () => {
        const { live_key, account_id } = await createAccount({ plan: 'pro', credits: 100 });
        const client = clientFor(live_key);
        const url = receiver.endpoint();
        const created = await client.searches.create({ ...search, limit: 50, webhook_url: url });
        expect(created.$response.status).toBe(202);
        expect(created.status).toBe('queued');
        expect(created.$response.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);

        const jobs: Job[] = await collect(
          client.searches.results(created.id, { limit: 2, pollIntervalMs: 250, timeoutMs: 120_000 }),
        );
        expect(jobs.map((j) => j.title.toLowerCase()).sort()).toEqual(titles.map((t) => t.toLowerCase()).sort());
        const finished = await client.searches.get(created.id);
        expect(['completed', 'partial']).toContain(finished.status);

        const [arrival] = await receiver.waitFor(url, 1, 60_000);
        const secret = await secretOf(account_id, url);
        const event = verifyWebhook({
          payload: arrival!.raw,
          signature: arrival!.headers['service-signature'],
          secret,
        });
        expect(event.type).toBe('search.completed');
        if (event.type !== 'search.completed') throw new Error('unreachable');
        expect(event.data.search).toEqual({ id: created.id, status: finished.status, jobs_found: titles.length });
        expect(() =>
          verifyWebhook({
            payload: arrival!.raw,
            signature: arrival!.headers['service-signature'],
            secret: 'whsec_wrong',
          }),
        ).toThrow('No v1 signature');

        // the feed has it; a page's cursor resumes after it
        const pages = await collect(client.events.pages({ limit: 1 }));
        const feed = pages.flatMap((p) => p.data);
        expect(feed.map((e) => e.id)).toContain(event.id);
        const lastCursor = pages.filter((p) => p.next_cursor !== null).at(-1)!.next_cursor!;
        expect(await collect(client.events.iterate({ since: lastCursor }))).toEqual([]);

        // a replay re-sends the same event id, signed again
        const replay = await client.webhooks.replay(event.id);
        expect(replay).toEqual({ event_id: event.id, status: 'queued' });
        const arrivals = await receiver.waitFor(url, 2, 60_000);
        const again = client.webhooks.verify({
          payload: arrivals[1]!.raw,
          signature: arrivals[1]!.headers['service-signature'],
          secret,
        });
        expect(again.id).toBe(event.id);
      },
    );

    it('creates, lists and deletes watches', async () => {
      const { live_key } = await createAccount({ plan: 'pro', credits: 10 });
      const client = clientFor(live_key);
      const domain = await addWorldCompany();
      const made = [];
      for (let i = 0; i < 3; i++)
        made.push(
          await client.watches.create({
            type: 'company',
            domain,
            webhook_url: receiver.endpoint(),
            events: ['job.closed'],
          }),
        );
      expect(made[0]!.$response.status).toBe(201);
      expect(made[0]).toMatchObject({ type: 'company', domain, status: 'active', events: ['job.closed'] });
      expect((await collect(client.watches.iterate())).map((w) => w.id).sort()).toEqual(made.map((w) => w.id).sort());

      const deleted = await client.watches.delete(made[1]!.id);
      expect(deleted.status).toBe(204);
      expect((await collect(client.watches.iterate())).map((w) => w.id).sort()).toEqual(
        [made[0]!.id, made[2]!.id].sort(),
      );
      expect(await rejection(client.watches.delete(made[1]!.id))).toBeInstanceOf(NotFoundError);
    });
  });

  it('reads the account and the providers', async () => {
    const { live_key } = await createAccount({ plan: 'growth', credits: 7 });
    const client = clientFor(live_key);
    const account = await client.account();
    expect(account).toMatchObject({ plan: 'growth', credits_remaining: 7 });
    expect(account.$response.serviceVersion).toBe('2026-10-01');
    const providers = await client.providers();
    expect(providers.data).toHaveLength(7);
    expect(
      providers.data
        .filter((p) => p.enabled_on_your_plan)
        .map((p) => p.slug)
        .sort(),
    ).toEqual([...account.providers_enabled].sort());
  });
});
