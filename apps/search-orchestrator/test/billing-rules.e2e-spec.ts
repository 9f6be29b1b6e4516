import { AccountSchema, ErrorEnvelopeSchema, JobSearchResponseSchema, type JobSearchResponse } from '@jobs/contracts';
import {
  addWorldJob,
  api,
  createAccount,
  resetProviders,
  setProvider,
  uniqueWord,
  wholeLedger,
  type WorldJob,
} from '@jobs/e2e-support';

/**
 * interface.md "Billing rules" for POST /v1/jobs/search, over HTTP against the running stack.
 * Fixtures are openings added to the simulated market with titles unique in the world, so
 * every search knows exactly which canonical jobs it must find.
 */
const OPERATION = 'POST /v1/jobs/search';

type Body = Record<string, unknown>;

async function search(key: string, body: Body, headers: Record<string, string> = {}) {
  const res = await api('/v1/jobs/search', { key, body, headers });
  if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(res.body)}`);
  const page = JobSearchResponseSchema.parse(res.body);
  return { res, page };
}

async function creditsOf(key: string): Promise<number> {
  const res = await api('/v1/account', { key });
  expect(res.status).toBe(200);
  return AccountSchema.parse(res.body).credits_remaining;
}

/** The billing headers repeat the metadata, and the balance is the account's. */
async function expectBillingHeaders(key: string, res: { headers: Headers }, page: JobSearchResponse): Promise<void> {
  expect(res.headers.get('x-credits-charged')).toBe(String(page.metadata.credits_charged));
  expect(res.headers.get('x-credits-remaining')).toBe(String(page.metadata.credits_remaining));
  expect(res.headers.get('x-request-id')).toBe(page.metadata.request_id);
  expect(await creditsOf(key)).toBe(page.metadata.credits_remaining);
}

const own = (keywords: string[], extra: Body = {}): Body => ({
  filters: { title_or: keywords },
  waterfall: { strategy: 'own_only' },
  limit: 10,
  ...extra,
});

describe('billing rules of POST /v1/jobs/search', () => {
  /** Five openings on the own index sharing one title word. */
  let groupWord: string;
  let group: WorldJob[];

  beforeAll(async () => {
    groupWord = uniqueWord();
    group = [];
    for (let i = 0; i < 5; i++) group.push(await addWorldJob({ providers: ['own_index'], shared_word: groupWord }));
  });

  it('charges 1 credit for a new unique job; the same search again is free and logged already_paid', async () => {
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    const job = await addWorldJob({ providers: ['own_index'] });

    const first = await search(key, own([job.keyword]));
    expect(first.page.data).toHaveLength(1);
    expect(first.page.data[0]!.title).toBe(job.title);
    expect(first.page.metadata).toMatchObject({ credits_charged: 1, jobs_already_paid: 0, credits_remaining: 99 });
    await expectBillingHeaders(key, first.res, first.page);

    const again = await search(key, own([job.keyword]));
    expect(again.page.data.map((j) => j.id)).toEqual(first.page.data.map((j) => j.id));
    expect(again.page.metadata).toMatchObject({
      credits_charged: 0,
      jobs_already_paid: again.page.data.length,
      credits_remaining: 99,
    });
    await expectBillingHeaders(key, again.res, again.page);

    const jobId = first.page.data[0]!.id;
    const ledger = await wholeLedger(key, jobId);
    expect(
      ledger.map((l) => ({
        reason: l.reason,
        credits: l.credits,
        request_id: l.request_id,
        operation: l.operation,
        job_id: l.job_id,
      })),
    ).toEqual([
      {
        reason: 'already_paid',
        credits: 0,
        request_id: again.res.headers.get('x-request-id'),
        operation: OPERATION,
        job_id: jobId,
      },
      {
        reason: 'charged',
        credits: 1,
        request_id: first.res.headers.get('x-request-id'),
        operation: OPERATION,
        job_id: jobId,
      },
    ]);
  });

  it('does not charge for duplicate provider records merged into one canonical job', async () => {
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    const seenThrice = await addWorldJob({ providers: ['own_index', 'provider_a', 'provider_b'] });
    const seenTwice = await addWorldJob({ providers: ['provider_a', 'provider_c'] });

    const { res, page } = await search(key, {
      filters: { title_or: [seenThrice.keyword, seenTwice.keyword] },
      waterfall: { strategy: 'max_coverage' },
      limit: 10,
    });
    expect(page.metadata.status).toBe('complete');
    expect(page.data.map((j) => j.title).sort()).toEqual([seenThrice.title, seenTwice.title].sort());
    const sourcesOf = (title: string) =>
      new Set(page.data.find((j) => j.title === title)!.sources.map((s) => s.provider));
    expect(sourcesOf(seenThrice.title)).toEqual(new Set(['own_index', 'provider_a', 'provider_b']));
    expect(sourcesOf(seenTwice.title)).toEqual(new Set(['provider_a', 'provider_c']));
    // Five provider records, two canonical jobs: three records merged, two credits.
    expect(page.metadata.duplicates_merged).toBeGreaterThan(0);
    expect(page.metadata.credits_charged).toBe(2);
    expect(page.metadata.credits_remaining).toBe(98);
    await expectBillingHeaders(key, res, page);
    expect((await wholeLedger(key)).filter((l) => l.reason === 'charged')).toHaveLength(2);
  });

  it('charges nothing for an empty result, and still reports the credits in headers', async () => {
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 7 });
    const { res, page } = await search(key, {
      filters: { title_or: [uniqueWord()] },
      waterfall: { strategy: 'max_coverage' },
      limit: 10,
    });
    expect(page.data).toEqual([]);
    expect(page.next_cursor).toBeNull();
    expect(page.metadata).toMatchObject({ credits_charged: 0, jobs_already_paid: 0, credits_remaining: 7 });
    expect(res.headers.get('x-credits-charged')).toBe('0');
    expect(res.headers.get('x-credits-remaining')).toBe('7');
    await expectBillingHeaders(key, res, page);
    expect(await wholeLedger(key)).toEqual([]);
  });

  it('stops the results at max_credits, a hard cap, and returns already-paid jobs free within the page', async () => {
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    const capped = await search(key, own([groupWord], { waterfall: { strategy: 'own_only', max_credits: 3 } }));
    expect(capped.page.data).toHaveLength(3);
    expect(capped.page.metadata).toMatchObject({ credits_charged: 3, jobs_already_paid: 0, credits_remaining: 97 });
    await expectBillingHeaders(key, capped.res, capped.page);
    for (const job of capped.page.data)
      expect(job.title.startsWith(`${groupWord[0]!.toUpperCase()}${groupWord.slice(1)} `)).toBe(true);

    // The same search: three jobs already paid (free, not counted against the cap) and two new ones.
    const again = await search(key, own([groupWord], { waterfall: { strategy: 'own_only', max_credits: 3 } }));
    expect(again.page.data).toHaveLength(5);
    expect(again.page.metadata).toMatchObject({ credits_charged: 2, jobs_already_paid: 3, credits_remaining: 95 });
    await expectBillingHeaders(key, again.res, again.page);
    expect(again.page.data.map((j) => j.id)).toEqual(expect.arrayContaining(capped.page.data.map((j) => j.id)));

    // max_credits 0: nothing may be charged, every already-paid job still comes back.
    const free = await search(key, own([groupWord], { waterfall: { strategy: 'own_only', max_credits: 0 } }));
    expect(free.page.data).toHaveLength(5);
    expect(free.page.metadata).toMatchObject({ credits_charged: 0, jobs_already_paid: 5, credits_remaining: 95 });

    const ledger = await wholeLedger(key);
    expect(ledger.filter((l) => l.reason === 'charged')).toHaveLength(5);
    expect(ledger.reduce((sum, l) => sum + l.credits, 0)).toBe(5);
  });

  it('pages on right after the last job a capped page returned, without gaps or repeats', async () => {
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    const body = own([groupWord], { waterfall: { strategy: 'own_only', max_credits: 2 } });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const { res, page }: { res: { headers: Headers }; page: JobSearchResponse } = await search(
        key,
        cursor ? { ...body, cursor } : body,
      );
      expect(page.metadata.credits_charged).toBeLessThanOrEqual(2);
      expect(page.metadata.credits_charged).toBe(page.data.length);
      await expectBillingHeaders(key, res, page);
      seen.push(...page.data.map((j) => j.id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expect(await creditsOf(key)).toBe(95);
  });

  it('reports field_coverage of the jobs a capped page returned', async () => {
    const word = uniqueWord();
    await addWorldJob({ providers: ['own_index'], shared_word: word });
    for (let i = 0; i < 3; i++) await addWorldJob({ providers: ['own_index'], shared_word: word, salary: null });
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    const { page } = await search(key, own([word], { waterfall: { strategy: 'own_only', max_credits: 1 } }));
    expect(page.data).toHaveLength(1);
    // One job returned: it has a salary (1) or not (0); never the 1-in-4 of the uncut page.
    expect(page.metadata.field_coverage['salary']).toBe(page.data[0]!.salary === null ? 0 : 1);
  });

  it(
    'answers 402 insufficient_credits with credits_needed and ' +
      'charges nothing; max_credits within the balance succeeds',
    async () => {
      const { live_key: key } = await createAccount({ plan: 'pro', credits: 2 });
      const res = await api('/v1/jobs/search', { key, body: own([groupWord]) });
      expect(res.status).toBe(402);
      const { error } = ErrorEnvelopeSchema.parse(res.body);
      expect(error).toMatchObject({
        code: 'insufficient_credits',
        type: 'billing_error',
        credits_needed: 3,
        request_id: res.headers.get('x-request-id'),
      });
      expect(error.upgrade_url).toMatch(/^https?:\/\//);
      expect(await creditsOf(key)).toBe(2);
      expect(await wholeLedger(key)).toEqual([]);

      const capped = await search(key, own([groupWord], { waterfall: { strategy: 'own_only', max_credits: 2 } }));
      expect(capped.page.data).toHaveLength(2);
      expect(capped.page.metadata).toMatchObject({ credits_charged: 2, credits_remaining: 0 });
      await expectBillingHeaders(key, capped.res, capped.page);
    },
  );

  it('never charges a test key', async () => {
    const account = await createAccount({ plan: 'pro', credits: 10 });
    for (const body of [
      own([groupWord]),
      { filters: {}, limit: 100 },
      { filters: { title_or: ['engineer'] }, waterfall: { strategy: 'max_coverage' }, limit: 5 },
    ]) {
      const { res, page } = await search(account.test_key, body);
      expect(page.metadata).toMatchObject({ credits_charged: 0, credits_remaining: 10 });
      await expectBillingHeaders(account.test_key, res, page);
    }
    const { page } = await search(account.test_key, { filters: {}, limit: 100 });
    expect(page.data.length).toBeGreaterThan(0);
    expect(await creditsOf(account.live_key)).toBe(10);
    expect(await wholeLedger(account.live_key)).toEqual([]);
  });

  describe('with a failing provider', () => {
    afterAll(async () => {
      await resetProviders();
    });

    it('charges nothing for what the failed provider would have brought', async () => {
      const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
      const onOwnIndex = await addWorldJob({ providers: ['own_index'] });
      // posted ten days ago at a company the store does not know: no refresh pass brings it into
      // the store, so only provider_d's answer can (the own index's store leg must not)
      const onlyOnD = await addWorldJob({
        providers: ['provider_d'],
        posted_at: new Date(Date.now() - 10 * 86_400_000).toISOString(),
      });
      const body = {
        filters: { title_or: [onOwnIndex.keyword, onlyOnD.keyword] },
        waterfall: { strategy: 'max_coverage', providers: ['own_index', 'provider_d'] },
        limit: 10,
      };

      await setProvider('provider_d', { fail: 'error' });
      const failed = await search(key, body);
      expect(failed.page.metadata.status).toBe('partial');
      expect(failed.page.metadata.providers.failed).toEqual([{ provider: 'provider_d', code: 'provider_error' }]);
      expect(failed.page.data.map((j) => j.title)).toEqual([onOwnIndex.title]);
      expect(failed.page.metadata).toMatchObject({ credits_charged: 1, credits_remaining: 99 });
      await expectBillingHeaders(key, failed.res, failed.page);

      // Back in service, the provider brings its opening, which was never paid for.
      await resetProviders();
      let healed = await search(key, body);
      for (let i = 0; i < 30 && healed.page.metadata.status !== 'complete'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 1000)); // a circuit breaker may still be open
        healed = await search(key, body);
      }
      expect(healed.page.metadata.status).toBe('complete');
      expect(healed.page.data.map((j) => j.title).sort()).toEqual([onOwnIndex.title, onlyOnD.title].sort());
      expect(healed.page.metadata).toMatchObject({ credits_charged: 1, jobs_already_paid: 1, credits_remaining: 98 });
      const charged = (await wholeLedger(key)).filter((l) => l.reason === 'charged');
      expect(charged.map((l) => l.job_id).sort()).toEqual(healed.page.data.map((j) => j.id).sort());
    });
  });
});
