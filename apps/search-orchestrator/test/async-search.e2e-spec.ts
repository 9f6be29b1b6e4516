import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AccountSchema, AsyncSearchSchema, ErrorEnvelopeSchema, type AsyncSearch } from '@jobs/contracts';
import {
  addWorldJob,
  admin,
  api,
  crawled,
  createAccount,
  killService,
  resetProviders,
  servicePid,
  setProvider,
  TopicTap,
  uniqueWord,
  waitForStackReady,
  wholeLedger,
  type LedgerLine,
  type ProviderSlug,
} from '@jobs/e2e-support';

/**
 * interface.md "Async search" over HTTP against the running stack: POST /v1/searches answers
 * 202 queued, collection runs as chunks through the fetcher, dedupe and billing, and GET
 * /v1/searches/{id} pages the results. Fixtures are openings with a title word unique in the
 * world, so every search knows exactly which canonical jobs it must collect.
 */
const OPERATION = 'POST /v1/searches';
type Body = Record<string, unknown>;

async function start(key: string, body: Body, headers: Record<string, string> = {}): Promise<AsyncSearch> {
  const res = await api('/v1/searches', { key, body, headers });
  if (res.status !== 202) throw new Error(`POST /v1/searches answered ${res.status}: ${JSON.stringify(res.body)}`);
  return AsyncSearchSchema.parse(res.body);
}

async function read(key: string, id: string, query = ''): Promise<AsyncSearch> {
  const res = await api(`/v1/searches/${id}${query}`, { key });
  if (res.status !== 200) throw new Error(`GET /v1/searches/${id} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return AsyncSearchSchema.parse(res.body);
}

/** Polls the search (one job per read) until `done` holds, within the deadline. */
async function waitFor(
  key: string,
  id: string,
  done: (s: AsyncSearch) => boolean,
  timeoutMs = 60_000,
): Promise<AsyncSearch> {
  const deadline = Date.now() + timeoutMs;
  let last: AsyncSearch | undefined;
  while (Date.now() < deadline) {
    try {
      last = await read(key, id, '?limit=1');
      if (done(last)) return last;
    } catch {
      // the gateway may answer 500 while a service restarts: poll on
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(
    `search ${id} did not get there in time; last seen: ` +
      `${JSON.stringify(last && { status: last.status, jobs_found: last.jobs_found })}`,
  );
}

const finished = (s: AsyncSearch) => ['completed', 'partial', 'failed'].includes(s.status);

/** Every collected job, page after page (`limit` per page), in order. */
async function allResults(key: string, id: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 500; pages++) {
    const page: AsyncSearch = await read(key, id, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.data.length).toBeLessThanOrEqual(limit);
    ids.push(...page.data.map((job) => job.id));
    cursor = page.next_cursor;
    if (!cursor) return ids;
  }
  throw new Error('results did not end within 500 pages');
}

async function creditsOf(key: string): Promise<number> {
  const res = await api('/v1/account', { key });
  return AccountSchema.parse(res.body).credits_remaining;
}

const ofSearch = (lines: LedgerLine[], id: string) => lines.filter((line) => line.request_id === id);

/** `count` openings sharing one new title word, listed by `providers`. */
async function openings(count: number, providers: ProviderSlug[]): Promise<string> {
  const word = uniqueWord();
  for (let i = 0; i < count; i++) await addWorldJob({ providers, shared_word: word });
  return word;
}

describe('async searches (POST/GET /v1/searches)', () => {
  afterEach(async () => {
    await resetProviders();
  });

  it(
    'answers 202 queued, collects every matching job, charges ' +
      'them as collected, then pages them without gap or repeat',
    async () => {
      const word = await openings(7, ['own_index', 'provider_a']);
      const account = await createAccount({ plan: 'pro', credits: 100 });
      const accepted = await start(account.live_key, {
        filters: { title_or: [word] },
        waterfall: { strategy: 'max_coverage' },
      });
      expect(accepted).toMatchObject({
        status: 'queued',
        data: [],
        metadata: null,
        jobs_found: 0,
        next_cursor: null,
        webhook_url: null,
      });
      expect(accepted.id).toMatch(/^srch_/);

      // charged as collected: the ledger holds the search's lines before any result is read
      const deadline = Date.now() + 60_000;
      let lines: LedgerLine[] = [];
      while (Date.now() < deadline && ofSearch(lines, accepted.id).length < 7) {
        await new Promise((r) => setTimeout(r, 300));
        lines = await wholeLedger(account.live_key);
      }
      const charged = ofSearch(lines, accepted.id);
      expect(charged).toHaveLength(7);
      expect(
        charged.every((line) => line.operation === OPERATION && line.reason === 'charged' && line.credits === 1),
      ).toBe(true);

      const done = await waitFor(account.live_key, accepted.id, finished);
      expect(done).toMatchObject({ status: 'completed', jobs_found: 7 });
      expect(done.completed_at).not.toBeNull();
      expect(done.metadata).toMatchObject({
        status: 'complete',
        credits_charged: 7,
        jobs_already_paid: 0,
        credits_remaining: 93,
      });
      expect(done.metadata!.providers.tried).toEqual(expect.arrayContaining(['own_index', 'provider_a', 'provider_f']));
      expect(done.metadata!.providers.hit).toEqual(expect.arrayContaining(['own_index', 'provider_a']));
      expect(await creditsOf(account.live_key)).toBe(93);

      const ids = await allResults(account.live_key, accepted.id, 3);
      expect(ids).toHaveLength(7);
      expect(new Set(ids)).toEqual(new Set(charged.map((line) => line.job_id)));
      // reading is free
      expect(await creditsOf(account.live_key)).toBe(93);
      expect(ofSearch(await wholeLedger(account.live_key), accepted.id)).toHaveLength(7);
    },
    90_000,
  );

  it('goes on_hold when credits run out, keeps what it collected, and resumes by itself after a top-up', async () => {
    const word = await openings(7, ['own_index']);
    const account = await createAccount({ plan: 'pro', credits: 3 });
    const accepted = await start(account.live_key, {
      filters: { title_or: [word] },
      waterfall: { strategy: 'own_only' },
    });
    const held = await waitFor(account.live_key, accepted.id, (s) => s.status === 'on_hold');
    expect(held).toMatchObject({ jobs_found: 3, data: [], metadata: null });
    expect(await creditsOf(account.live_key)).toBe(0);

    expect(await admin('POST', `/accounts/${account.account_id}/credits`, { amount: 10 })).toEqual({
      credits_remaining: 10,
    });
    const done = await waitFor(account.live_key, accepted.id, finished);
    expect(done).toMatchObject({ status: 'completed', jobs_found: 7 });
    expect(done.metadata).toMatchObject({ credits_charged: 7, credits_remaining: 6 });
    expect(await creditsOf(account.live_key)).toBe(6);
    const lines = ofSearch(await wholeLedger(account.live_key), accepted.id);
    expect(lines.filter((l) => l.reason === 'charged')).toHaveLength(7);
    expect(new Set(lines.map((l) => l.job_id)).size).toBe(7);
    expect(new Set(await allResults(account.live_key, accepted.id, 100))).toEqual(new Set(lines.map((l) => l.job_id)));
  }, 90_000);

  /**
   * A `max_coverage` search of a Pro account with 50 credits over `shared` openings of the own index
   * and provider_b and 2 of provider_b alone, started once provider_b fails every call.
   */
  async function searchWithProviderBFailing(shared: number) {
    const word = await openings(shared, ['own_index', 'provider_b']);
    const onlyB = await openings(2, ['provider_b']);
    await setProvider('provider_b', { fail: 'error' });
    const account = await createAccount({ plan: 'pro', credits: 50 });
    const accepted = await start(account.live_key, {
      filters: { title_or: [word, onlyB] },
      waterfall: { strategy: 'max_coverage', timeout_ms: 3000 },
    });
    return { account, accepted };
  }

  it('ends partial when a provider fails, with what the others brought, and charges nothing for it', async () => {
    const { account, accepted } = await searchWithProviderBFailing(3);
    const done = await waitFor(account.live_key, accepted.id, finished, 90_000);
    expect(done.status).toBe('partial');
    expect(done.jobs_found).toBe(3);
    expect(done.metadata!.status).toBe('partial');
    expect(done.metadata!.providers.failed).toEqual([{ provider: 'provider_b', code: 'provider_error' }]);
    expect(await creditsOf(account.live_key)).toBe(47);
    expect(await allResults(account.live_key, accepted.id, 100)).toHaveLength(3);
  }, 120_000);

  it("outlasts a partner's brief failure: its chunk is asked again after the breaker's cool-down", async () => {
    const { account, accepted } = await searchWithProviderBFailing(2);
    // the partner is back well before the chunk's next try
    await new Promise((r) => setTimeout(r, 3_000));
    await setProvider('provider_b', { fail: 'none' });
    const done = await waitFor(account.live_key, accepted.id, finished, 90_000);
    expect(done.status).toBe('completed');
    expect(done.jobs_found).toBe(4);
    expect(done.metadata!.providers.failed).toEqual([]);
  }, 120_000);

  it("finishes another account's search while a partner hangs on this one's chunk", async () => {
    const hangingWord = await openings(2, ['provider_b']);
    const otherWord = await openings(2, ['own_index', 'provider_a']);
    // the openings in the store first: the refresh pass the first search would wait for waits on provider_b
    await crawled();
    await setProvider('provider_b', { fail: 'timeout' });
    const hanging = await createAccount({ plan: 'pro', credits: 50 });
    const held = await start(hanging.live_key, {
      filters: { title_or: [hangingWord] },
      waterfall: { strategy: 'max_coverage', providers: ['provider_b'], timeout_ms: 30_000 },
    });
    // its chunk is at the fetcher by then, waiting on provider_b (the search shows queued until a chunk is in)
    await new Promise((r) => setTimeout(r, 2_000));
    expect((await read(hanging.live_key, held.id)).status).toBe('queued');
    const other = await createAccount({ plan: 'pro', credits: 50 });
    const quick = await start(other.live_key, {
      filters: { title_or: [otherWord] },
      waterfall: { strategy: 'max_coverage', providers: ['own_index', 'provider_a'], timeout_ms: 5_000 },
    });
    const done = await waitFor(other.live_key, quick.id, finished, 60_000);
    expect(done.status).toBe('completed');
    expect(done.jobs_found).toBe(2);
    // before the hanging chunk's deadline (the service's own clock): its place held only itself, not
    // the fetch of the other accounts' chunks behind it
    expect(Date.parse(done.completed_at!) - Date.parse(held.created_at)).toBeLessThan(30_000);
    expect((await read(hanging.live_key, held.id)).status).toBe('queued');
  }, 120_000);

  it('returns the same search for the same Idempotency-Key, a new one for another key', async () => {
    const word = await openings(1, ['own_index']);
    const account = await createAccount({ plan: 'pro', credits: 10 });
    const body = { filters: { title_or: [word] }, waterfall: { strategy: 'own_only' }, limit: 5 };
    const key = randomUUID();
    const first = await start(account.live_key, body, { 'Idempotency-Key': key });
    const again = await api('/v1/searches', { key: account.live_key, body, headers: { 'Idempotency-Key': key } });
    expect(again.status).toBe(202);
    expect(AsyncSearchSchema.parse(again.body).id).toBe(first.id);
    const other = await start(account.live_key, body, { 'Idempotency-Key': randomUUID() });
    expect(other.id).not.toBe(first.id);
    const conflict = await api('/v1/searches', {
      key: account.live_key,
      body: { ...body, limit: 6 },
      headers: { 'Idempotency-Key': key },
    });
    expect(conflict.status).toBe(409);
    // the job is charged once although two searches collected it
    await waitFor(account.live_key, first.id, finished);
    await waitFor(account.live_key, other.id, finished);
    expect(await creditsOf(account.live_key)).toBe(9);
    const lines = (await wholeLedger(account.live_key)).filter((l) => [first.id, other.id].includes(l.request_id));
    expect(lines.map((l) => l.reason).sort()).toEqual(['already_paid', 'charged']);
  }, 90_000);

  it("answers 404 for an unknown search and another account's, and validates the request", async () => {
    const word = await openings(1, ['own_index']);
    const owner = await createAccount({ plan: 'pro', credits: 10 });
    const stranger = await createAccount({ plan: 'pro', credits: 10 });
    const search = await start(owner.live_key, { filters: { title_or: [word] }, waterfall: { strategy: 'own_only' } });
    for (const res of [
      await api(`/v1/searches/${search.id}`, { key: stranger.live_key }),
      await api('/v1/searches/srch_doesnotexist', { key: owner.live_key }),
    ]) {
      expect(res.status).toBe(404);
      expect(ErrorEnvelopeSchema.parse(res.body).error.code).toBe('not_found');
    }
    const unknown = await api('/v1/searches', { key: owner.live_key, body: { filters: {}, sort: 'new' } });
    expect(unknown.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(unknown.body).error.code).toBe('invalid_request');
    const tooMany = await api('/v1/searches', { key: owner.live_key, body: { filters: {}, limit: 10_001 } });
    expect(ErrorEnvelopeSchema.parse(tooMany.body).error).toMatchObject({ code: 'invalid_request', param: 'limit' });
    const noFilters = await api('/v1/searches', { key: owner.live_key, body: { limit: 5 } });
    expect(noFilters.status).toBe(400);
    const growth = await createAccount({ plan: 'growth', credits: 10 });
    const offPlan = await api('/v1/searches', {
      key: growth.live_key,
      body: { filters: { title_or: [word] }, waterfall: { providers: ['provider_f'] } },
    });
    expect(offPlan.status).toBe(403);
    expect(ErrorEnvelopeSchema.parse(offPlan.body).error).toMatchObject({
      code: 'plan_required',
      required_plan: 'pro',
    });
    const badPage = await api(`/v1/searches/${search.id}?limit=101`, { key: owner.live_key });
    expect(badPage.status).toBe(400);
  }, 60_000);

  it('gives test keys the sandbox data at once, never charged', async () => {
    const account = await createAccount({ plan: 'pro', credits: 10 });
    const accepted = await start(account.test_key, { filters: {}, limit: 15 });
    const done = await waitFor(account.test_key, accepted.id, finished, 20_000);
    expect(done).toMatchObject({ status: 'completed', jobs_found: 15 });
    expect(done.metadata).toMatchObject({ credits_charged: 0, credits_remaining: 10 });
    const ids = await allResults(account.test_key, accepted.id, 10);
    expect(ids).toHaveLength(15);
    expect(new Set(ids).size).toBe(15);
    expect(await creditsOf(account.live_key)).toBe(10);
  }, 30_000);

  it(
    'never asks a chunk again while it is still on its way: with ' +
      'dedupe paused past the stall time, each chunk is asked once',
    async () => {
      const word = await openings(4, ['own_index', 'provider_a', 'provider_c']);
      const account = await createAccount({ plan: 'pro', credits: 50 });
      const tap = new TopicTap(['async.chunk.requested']);
      await tap.start();
      await crawled(); // the refresh pass that brings the openings into the store needs dedupe
      const dedupe = servicePid('dedupe');
      if (dedupe === undefined) throw new Error('dedupe is not running');
      // the chunks are fetched, then wait for dedupe: the search makes no step for longer than the
      // sweeper's stall time (30 s) while every chunk is still on its way
      process.kill(dedupe, 'SIGSTOP');
      const resume = setTimeout(() => process.kill(dedupe, 'SIGCONT'), 90_000); // whatever happens to this test
      let accepted: AsyncSearch;
      try {
        accepted = await start(account.live_key, {
          filters: { title_or: [word] },
          waterfall: { strategy: 'max_coverage' },
        });
        await new Promise((r) => setTimeout(r, 45_000));
        expect((await read(account.live_key, accepted.id)).status).toBe('queued');
      } finally {
        clearTimeout(resume);
        process.kill(dedupe, 'SIGCONT');
      }
      const done = await waitFor(account.live_key, accepted.id, finished, 150_000);
      expect(done).toMatchObject({ status: 'completed', jobs_found: 4 });
      await tap.stop();
      const asks = tap.seen
        .filter((m) => m.value['search_id'] === accepted.id)
        .map((m) => `${String(m.value['provider'])}/${String(m.value['chunk'])}/${String(m.value['attempt'])}`);
      expect(asks.filter((ask) => ask.endsWith('/0/0')).length).toBe(done.metadata!.providers.tried.length);
      expect(asks.length).toBeGreaterThanOrEqual(done.metadata!.providers.tried.length);
      // every chunk (provider, chunk, try) asked exactly once
      expect(new Set(asks).size).toBe(asks.length);
      // ... though the sweeper did find the search idle past its stall time (it says so in its log)
      const logDir = process.env['STACK_LOG_DIR'];
      if (logDir) {
        const logs = readdirSync(logDir)
          .filter((f) => f.startsWith('search-orchestrator'))
          .map((f) => readFileSync(join(logDir, f), 'utf8'))
          .join('\n');
        expect(logs.split('\n').some((line) => line.includes(accepted.id) && line.includes('still on their way'))).toBe(
          true,
        );
      }
      expect(await creditsOf(account.live_key)).toBe(46);
    },
    240_000,
  );

  it(
    'survives a SIGKILL of every service on its path ' +
      '(orchestrator, billing, dedupe, fetcher) mid-collection with ' +
      'an exact ledger',
    async () => {
      const account = await createAccount({ plan: 'pro', credits: 5000 });
      const accepted = await start(account.live_key, {
        filters: { title_or: ['engineer', 'manager', 'analyst'] },
        waterfall: { strategy: 'max_coverage' },
        limit: 1500,
      });
      await waitFor(account.live_key, accepted.id, (s) => s.jobs_found > 0 || finished(s));
      killService('search-orchestrator');
      await new Promise((r) => setTimeout(r, 1500));
      killService('billing');
      await new Promise((r) => setTimeout(r, 1500));
      killService('dedupe');
      killService('provider-fetcher');
      await waitForStackReady();
      const done = await waitFor(account.live_key, accepted.id, finished, 240_000);
      expect(['completed', 'partial']).toContain(done.status);
      expect(done.jobs_found).toBeGreaterThan(100);
      const lines = ofSearch(await wholeLedger(account.live_key), accepted.id);
      const charged = lines.filter((l) => l.reason === 'charged');
      const spent = 5000 - (await creditsOf(account.live_key));
      // credits spent == ledger credits == distinct charged jobs == jobs_found (a new account: every job new)
      expect(charged.reduce((sum, l) => sum + l.credits, 0)).toBe(spent);
      expect(new Set(charged.map((l) => l.job_id)).size).toBe(charged.length);
      expect(charged.length).toBe(spent);
      expect(done.jobs_found).toBe(spent);
      expect(done.metadata!.credits_charged).toBe(spent);
      const ids = await allResults(account.live_key, accepted.id, 100);
      expect(ids).toHaveLength(done.jobs_found);
      expect(new Set(ids)).toEqual(new Set(charged.map((l) => l.job_id)));
    },
    360_000,
  );
});
