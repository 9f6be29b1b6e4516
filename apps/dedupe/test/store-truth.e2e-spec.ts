// What the store says is complete and current, over the running stack: refresh passes
// (POST /admin/refresh, awaited with GET /admin/refresh/{id}) keep every stored job true whether
// anyone watches it or not, the own index answers from the store without waiting for its crawler,
// and watches are matched from the store's changes: one event per watch and change.
import { JobSearchResponseSchema, type Job } from '@jobs/contracts';
import {
  addWorldCompany,
  addWorldJob,
  admin,
  api,
  createAccount,
  eventually,
  Receiver,
  refreshPass,
  resetProviders,
  setProvider,
  waitForStackReady,
} from '@jobs/e2e-support';

/** REFRESH_BUCKETS of the test stack (dedupe's default): every stored job re-verified within this many passes. */
const FRESHNESS_PASSES = 10;

beforeAll(async () => {
  await waitForStackReady();
}, 180_000);

afterAll(async () => {
  await resetProviders().catch(() => undefined);
});

async function search(
  key: string,
  body: Record<string, unknown>,
): Promise<{ data: Job[]; metadata: { status: string; providers: { failed: unknown[]; tried: string[] } } }> {
  const res = await api('/v1/jobs/search', { method: 'POST', key, body });
  if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(res.body)}`);
  return JobSearchResponseSchema.parse(res.body) as never;
}

describe('the own index answers from the store', () => {
  it(
    'finds an opening of the own crawler once a pass swept it in, ' +
      'within a tight timeout_ms even when the crawler is slow',
    async () => {
      const { live_key: key } = await createAccount({ plan: 'starter', credits: 50 });
      const world = await addWorldJob({ providers: ['own_index'] });
      await refreshPass();
      // the crawler now answers only after 30 s: a complete answer within a deadline shorter than
      // that did not wait for it (4 s: the store's answer has a loaded machine's hops to make)
      await setProvider('own_index', { latency_ms: 30_000 });
      const page = await search(key, { filters: { title_or: [world.keyword] }, waterfall: { timeout_ms: 4_000 } });
      expect(page.metadata.status).toBe('complete');
      expect(page.metadata.providers.failed).toEqual([]);
      expect(page.data.map((j) => j.title)).toEqual([world.title]);
      expect(page.data[0]!.sources.map((s) => s.provider)).toEqual(['own_index']);
      await resetProviders();
    },
  );
});

describe('refresh passes keep every stored job true, watched or not', () => {
  it('closes an unwatched opening of the own crawler at the next pass, with the crawler reason', async () => {
    const { live_key: key } = await createAccount({ plan: 'starter', credits: 50 });
    const world = await addWorldJob({ providers: ['own_index'] });
    await refreshPass();
    const [open] = (await search(key, { filters: { title_or: [world.keyword] } })).data;
    expect(open).toMatchObject({ title: world.title, status: 'open' });
    await admin('POST', `/world/jobs/${world.worldJobId}/close`, { reason: 'filled' });
    await refreshPass();
    expect((await search(key, { filters: { title_or: [world.keyword] } })).data).toEqual([]);
    const [closed] = (await search(key, { filters: { title_or: [world.keyword], include_closed: true } })).data;
    expect(closed).toMatchObject({ id: open!.id, status: 'closed', closed_reason: 'filled' });
  });

  it(
    `re-verifies unwatched partner-only openings within ` +
      `${FRESHNESS_PASSES} passes: an update and a closure show in ` +
      `searches; a re-listing at the next pass`,
    async () => {
      const { live_key: key } = await createAccount({ plan: 'pro', credits: 50 });
      // two openings at two companies (two buckets, most likely), both in the store through a search
      const updated = await addWorldJob({ providers: ['provider_a'] });
      const closed = await addWorldJob({ providers: ['provider_a'] });
      const partnerBody = (keyword: string) => ({
        filters: { title_or: [keyword], include_closed: true },
        waterfall: { providers: ['provider_a'] },
      });
      const [first] = (await search(key, partnerBody(updated.keyword))).data;
      const [second] = (await search(key, partnerBody(closed.keyword))).data;
      expect(first).toMatchObject({ status: 'open', salary: expect.objectContaining({ min: 50_000 }) });
      expect(second).toMatchObject({ status: 'open' });

      // asked from the store only (own_only): what the store believes, not a fresh partner read
      const fromStore = async (keyword: string) =>
        (
          await search(key, {
            filters: { title_or: [keyword], include_closed: true },
            waterfall: { strategy: 'own_only' },
          })
        ).data[0];
      await admin('PATCH', `/world/jobs/${updated.worldJobId}`, {
        salary: { min: 70_000, max: 80_000, currency: 'GBP', period: 'year' },
      });
      await admin('POST', `/world/jobs/${closed.worldJobId}/close`, { reason: 'expired' });
      const seen = async () =>
        (await fromStore(updated.keyword))?.salary?.min === 70_000 &&
        (await fromStore(closed.keyword))?.status === 'closed';
      for (let passes = 0; passes < FRESHNESS_PASSES && !(await seen()); passes++) await refreshPass();
      expect((await fromStore(updated.keyword))?.salary).toMatchObject({ min: 70_000, max: 80_000 });
      expect(await fromStore(closed.keyword)).toMatchObject({
        id: second!.id,
        status: 'closed',
        closed_reason: 'unknown',
      });

      // re-listed under a new provider id: the partner's new listings bring it back at the next pass
      await admin('POST', `/world/jobs/${closed.worldJobId}/repost`);
      await refreshPass();
      expect(await fromStore(closed.keyword)).toMatchObject({
        id: second!.id,
        status: 'open',
        closed_reason: null,
        repost_count: 1,
      });
    },
    900_000,
  );

  it(
    'a pass never closes on a failed read: the crawler saw the ' +
      'opening close, its partner fails, the job stays open',
    async () => {
      const { live_key: key } = await createAccount({ plan: 'pro', credits: 50 });
      const world = await addWorldJob({ providers: ['own_index', 'provider_b'] });
      const [found] = (
        await search(key, {
          filters: { title_or: [world.keyword] },
          waterfall: { providers: ['own_index', 'provider_b'], strategy: 'max_coverage' },
        })
      ).data;
      expect(found!.sources.map((s) => s.provider).sort()).toEqual(['own_index', 'provider_b']);
      await admin('POST', `/world/jobs/${world.worldJobId}/close`, { reason: 'removed' });
      await setProvider('provider_b', { fail: 'error' });
      // the first pass unlists the crawler's source; the next re-verifies provider_b for the company, and fails
      await refreshPass();
      await refreshPass();
      const [still] = (
        await search(key, { filters: { title_or: [world.keyword] }, waterfall: { strategy: 'own_only' } })
      ).data;
      expect(still).toMatchObject({ id: found!.id, status: 'open' });
      // provider_b back: a next pass re-verifies it again and the job closes, with the crawler's reason. The failed
      // reads opened provider_b's circuit breaker, and passes read nothing of it until its cool-down ends: a pass can
      // take less than that, so passes follow one another until the job closes, not a fixed number of them
      await resetProviders();
      const closedNow = async () =>
        (
          await search(key, {
            filters: { title_or: [world.keyword], include_closed: true },
            waterfall: { strategy: 'own_only' },
          })
        ).data[0];
      const closed = await eventually(
        async () => {
          const job = await closedNow();
          if (job?.status === 'closed') return job;
          await refreshPass();
          return undefined;
        },
        180_000,
        'the job closed once provider_b reads again',
        0,
      );
      expect(closed).toMatchObject({ id: found!.id, status: 'closed', closed_reason: 'removed' });
    },
    600_000,
  );
});

describe('watches matched from the store changes', () => {
  const receiver = new Receiver();
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it(
    "a job first known without its company's domain reaches the " +
      "company's watch as job.opened once a provider naming the " +
      'domain joins it',
    async () => {
      const domain = await addWorldCompany();
      const { live_key: key } = await createAccount({ plan: 'pro', credits: 10 });
      const url = receiver.endpoint();
      const res = await api('/v1/watches', {
        method: 'POST',
        key,
        body: { type: 'company', domain, webhook_url: url, events: ['job.opened'] },
      });
      expect(res.status).toBe(201);
      // provider_e lists no company domains: its record makes the job under a company known by name only
      const world = await addWorldJob({ providers: ['provider_e', 'provider_c'], company_domain: domain });
      const [unknown] = (
        await search(key, { filters: { title_or: [world.keyword] }, waterfall: { providers: ['provider_e'] } })
      ).data;
      expect(unknown!.company.domain).toBeNull();
      // provider_c names the domain: the same job reaches the watched company, a new opening there
      const [known] = (
        await search(key, { filters: { title_or: [world.keyword] }, waterfall: { providers: ['provider_c'] } })
      ).data;
      expect(known).toMatchObject({ id: unknown!.id, company: { domain } });
      const [arrival] = await receiver.waitFor(url, 1, 120_000);
      const event = JSON.parse(arrival!.raw) as { type: string; data: { job: Job } };
      expect(event).toMatchObject({ type: 'job.opened', data: { job: { id: unknown!.id, company: { domain } } } });
      // a little longer: nothing more arrives
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(receiver.at(url)).toHaveLength(1);
    },
  );

  it('1,000 watches of one company: a new opening makes one job.opened per watch, once each', async () => {
    const domain = await addWorldCompany();
    const accounts = await Promise.all(Array.from({ length: 10 }, () => createAccount({ plan: 'pro', credits: 100 })));
    const url = receiver.endpoint();
    const watchIds: string[] = [];
    for (let i = 0; i < 1_000; i += 20) {
      const made = await Promise.all(
        Array.from({ length: 20 }, async (_, j) => {
          const res = await api('/v1/watches', {
            method: 'POST',
            key: accounts[(i + j) % 10]!.live_key,
            body: { type: 'company', domain, webhook_url: url, events: ['job.opened'] },
          });
          if (res.status !== 201)
            throw new Error(`POST /v1/watches answered ${res.status}: ${JSON.stringify(res.body)}`);
          return String((res.body as { id: string }).id);
        }),
      );
      watchIds.push(...made);
    }
    const world = await addWorldJob({ providers: ['own_index', 'provider_c'], company_domain: domain });
    await refreshPass();
    await receiver.waitFor(url, 1_000, 300_000);
    // a little longer: nothing more arrives
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const events = receiver
      .at(url)
      .map((a) => JSON.parse(a.raw) as { id: string; type: string; watch_id: string; data: { job: Job } });
    expect(events).toHaveLength(1_000);
    expect(new Set(events.map((e) => e.watch_id))).toEqual(new Set(watchIds));
    expect(new Set(events.map((e) => e.id)).size).toBe(1_000);
    expect(new Set(events.map((e) => e.data.job.id)).size).toBe(1);
    expect(events.every((e) => e.type === 'job.opened' && e.data.job.title === world.title)).toBe(true);
    // each account paid for the job once, whatever its number of watches
    for (const account of accounts) {
      const credits = await eventually(
        async () => {
          const res = await api('/v1/account', { key: account.live_key });
          const left = (res.body as { credits_remaining: number }).credits_remaining;
          return left === 99 ? left : undefined;
        },
        30_000,
        'one credit charged per account',
      );
      expect(credits).toBe(99);
    }
    for (const id of watchIds)
      await api(`/v1/watches/${id}`, { method: 'DELETE', key: accounts[watchIds.indexOf(id) % 10]!.live_key });
  }, 600_000);
});
