import {
  AccountSchema,
  ErrorEnvelopeSchema,
  JobSearchResponseSchema,
  PROVIDER_SLUGS,
  ProviderListResponseSchema,
  type Job,
} from '@jobs/contracts';
import { addWorldJob, api, createAccount, type ProviderSlug, type WorldJob } from '@jobs/e2e-support';

/**
 * interface.md "Plans and provider access" and the search metadata, over HTTP: which providers
 * a plan's search tries, 403 plan_required for a provider off the plan, and what `tried`,
 * `hit`, `contributions`, `field_coverage` and `latency_ms` report for known openings.
 */
const STRATEGIES = ['cheapest_first', 'freshest_first', 'max_coverage', 'consensus', 'own_only'] as const;
const GROWTH = ['own_index', 'provider_a', 'provider_b'];
const ALL = [...PROVIDER_SLUGS];

async function search(key: string, body: Record<string, unknown>) {
  const res = await api('/v1/jobs/search', { key, body });
  if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { res, page: JobSearchResponseSchema.parse(res.body) };
}

async function accountOf(key: string) {
  const res = await api('/v1/account', { key });
  expect(res.status).toBe(200);
  return AccountSchema.parse(res.body);
}

async function enabledProviders(key: string): Promise<string[]> {
  const res = await api('/v1/providers', { key });
  expect(res.status).toBe(200);
  return ProviderListResponseSchema.parse(res.body)
    .data.filter((p) => p.enabled_on_your_plan)
    .map((p) => p.slug)
    .sort();
}

const titles = (jobs: readonly Job[]) => jobs.map((j) => j.title).sort();

describe('plan routing', () => {
  /** Seen only by the own crawler, only by provider_a, only by provider_c, and by three sources. */
  let ownOnly: WorldJob;
  let aOnly: WorldJob;
  let cOnly: WorldJob;
  let shared: WorldJob;
  let keywords: string[];

  beforeAll(async () => {
    ownOnly = await addWorldJob({ providers: ['own_index'] });
    aOnly = await addWorldJob({ providers: ['provider_a'] });
    cOnly = await addWorldJob({ providers: ['provider_c'] });
    shared = await addWorldJob({ providers: ['own_index', 'provider_a', 'provider_b'] });
    keywords = [ownOnly.keyword, aOnly.keyword, cOnly.keyword, shared.keyword];
    // A Pro search first, so the partner-only openings are in the canonical job store too.
    const { live_key: pro } = await createAccount({ plan: 'pro', credits: 100 });
    const { page } = await search(pro, {
      filters: { title_or: keywords },
      waterfall: { strategy: 'max_coverage' },
      limit: 10,
    });
    expect(titles(page.data)).toEqual([ownOnly.title, aOnly.title, cOnly.title, shared.title].sort());
  });

  it.each(['free', 'starter'] as const)(
    'a %s account tries only own_index, whatever the strategy, and never gets a partner-only job',
    async (plan) => {
      const { live_key: key } = await createAccount({ plan, credits: 100 });
      expect((await accountOf(key)).providers_enabled).toEqual(['own_index']);
      expect(await enabledProviders(key)).toEqual(['own_index']);
      for (const strategy of STRATEGIES) {
        const { page } = await search(key, { filters: { title_or: keywords }, waterfall: { strategy }, limit: 10 });
        expect(page.metadata.providers.tried).toEqual(['own_index']);
        expect(page.metadata.providers.failed).toEqual([]);
        // consensus needs two sources; no fixture is seen by two sources on this plan's routes.
        const found = titles(page.data);
        expect(found).not.toContain(aOnly.title);
        expect(found).not.toContain(cOnly.title);
        if (strategy !== 'consensus') expect(found).toEqual(expect.arrayContaining([ownOnly.title, shared.title]));
        for (const job of page.data) expect(job.sources.map((s) => s.provider)).toContain('own_index');
      }
    },
  );

  it(
    'a growth account tries own_index, provider_a and provider_b ' + 'on max_coverage, the providers its account lists',
    async () => {
      const { live_key: key } = await createAccount({ plan: 'growth', credits: 100 });
      expect([...(await accountOf(key)).providers_enabled].sort()).toEqual([...GROWTH].sort());
      expect(await enabledProviders(key)).toEqual([...GROWTH].sort());

      const { page } = await search(key, {
        filters: { title_or: keywords },
        waterfall: { strategy: 'max_coverage' },
        limit: 10,
      });
      expect(page.metadata.providers.tried[0]).toBe('own_index');
      expect([...page.metadata.providers.tried].sort()).toEqual([...GROWTH].sort());
      expect(titles(page.data)).toEqual([ownOnly.title, aOnly.title, shared.title].sort());
      expect([...page.metadata.providers.hit].sort()).toEqual([...GROWTH].sort());

      const cheapest = await search(key, {
        filters: { title_or: keywords },
        waterfall: { strategy: 'cheapest_first' },
        limit: 10,
      });
      expect(cheapest.page.metadata.providers.tried[0]).toBe('own_index');
      for (const provider of cheapest.page.metadata.providers.tried) expect(GROWTH).toContain(provider);
    },
  );

  it('a pro account tries all seven providers on max_coverage, the providers its account lists', async () => {
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    expect([...(await accountOf(key)).providers_enabled].sort()).toEqual(ALL);
    expect(await enabledProviders(key)).toEqual(ALL);
    const { page } = await search(key, {
      filters: { title_or: keywords },
      waterfall: { strategy: 'max_coverage' },
      limit: 10,
    });
    expect([...page.metadata.providers.tried].sort()).toEqual(ALL);
  });

  const refusals: Array<[plan: 'free' | 'starter' | 'growth', providers: ProviderSlug[], required: string]> = [
    ['growth', ['provider_c'], 'pro'],
    ['growth', ['own_index', 'provider_a', 'provider_c'], 'pro'],
    ['free', ['provider_a'], 'growth'],
    ['free', ['own_index', 'provider_b'], 'growth'],
    ['free', ['provider_c'], 'pro'],
    ['starter', ['provider_a', 'provider_f'], 'pro'],
  ];
  it.each(refusals)(
    'refuses a %s account that lists %j with 403 plan_required, required_plan %s, and charges nothing',
    async (plan, providers, required) => {
      const { live_key: key, test_key: testKey } = await createAccount({ plan, credits: 100 });
      // the test key is refused as the live key is: going live is a key change only
      for (const asker of [key, testKey]) {
        const res = await api('/v1/jobs/search', {
          key: asker,
          body: { filters: { title_or: keywords }, waterfall: { strategy: 'max_coverage', providers }, limit: 10 },
        });
        expect(res.status).toBe(403);
        const { error } = ErrorEnvelopeSchema.parse(res.body);
        expect(error).toMatchObject({
          code: 'plan_required',
          type: 'permission_error',
          required_plan: required,
          request_id: res.headers.get('x-request-id'),
        });
        expect(error.upgrade_url).toMatch(/^https?:\/\//);
      }
      expect((await accountOf(key)).credits_remaining).toBe(100);
    },
  );

  it('accepts providers that are on the plan', async () => {
    const { live_key: free } = await createAccount({ plan: 'free', credits: 100 });
    const own = await search(free, {
      filters: { title_or: [ownOnly.keyword] },
      waterfall: { strategy: 'max_coverage', providers: ['own_index'] },
      limit: 10,
    });
    expect(titles(own.page.data)).toEqual([ownOnly.title]);
    const { live_key: growth } = await createAccount({ plan: 'growth', credits: 100 });
    const partner = await search(growth, {
      filters: { title_or: [aOnly.keyword] },
      waterfall: { strategy: 'max_coverage', providers: ['provider_a'] },
      limit: 10,
    });
    expect(partner.page.metadata.providers.tried).toEqual(['provider_a']);
    expect(titles(partner.page.data)).toEqual([aOnly.title]);
  });

  it('reports tried, hit, contributions, field_coverage and latency_ms of what it found', async () => {
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    const { res, page } = await search(key, {
      filters: { title_or: keywords },
      waterfall: { strategy: 'max_coverage' },
      limit: 10,
    });
    const { metadata } = page;
    expect(metadata.request_id).toBe(res.headers.get('x-request-id'));
    expect(metadata.status).toBe('complete');
    expect(titles(page.data)).toEqual([ownOnly.title, aOnly.title, cOnly.title, shared.title].sort());

    const { tried, hit, failed, contributions } = metadata.providers;
    expect([...tried].sort()).toEqual(ALL);
    expect(failed).toEqual([]);
    // hit: the providers that returned at least one match, in the order they were tried.
    expect(hit).toEqual(tried.filter((p) => ['own_index', 'provider_a', 'provider_b', 'provider_c'].includes(p)));

    // contributions: each unique job credited to the one provider that brought it first; all
    // four fit in the page. The own index also answers from the store of canonical jobs (which
    // keeps what partners returned), so only a partner's count is bounded by what it listed.
    const total = Object.values(contributions).reduce((sum, n) => sum + (n ?? 0), 0);
    expect(total).toBe(page.data.length);
    const seenBy = (provider: string) =>
      page.data.filter((job) => job.sources.some((s) => s.provider === provider)).length;
    for (const [provider, count] of Object.entries(contributions)) {
      expect(tried).toContain(provider);
      if (provider !== 'own_index') expect(count).toBeLessThanOrEqual(seenBy(provider));
    }
    expect(contributions.own_index).toBeGreaterThanOrEqual(1); // no partner lists ownOnly
    for (const provider of ['provider_d', 'provider_e', 'provider_f'] as const)
      expect(contributions[provider] ?? 0).toBe(0);

    // Two partner records of `shared` became one job (the own index answers from the store: no record).
    expect(metadata.duplicates_merged).toBeGreaterThanOrEqual(1);
    expect(
      page.data
        .find((j) => j.title === shared.title)!
        .sources.map((s) => s.provider)
        .sort(),
    ).toEqual(['own_index', 'provider_a', 'provider_b']);

    // field_coverage: the fraction of returned jobs with a value, for every field it names.
    for (const field of ['salary', 'seniority', 'location.remote', 'description'])
      expect(Object.keys(metadata.field_coverage)).toContain(field);
    for (const [field, fraction] of Object.entries(metadata.field_coverage)) {
      expect(fraction).toBeGreaterThanOrEqual(0);
      expect(fraction).toBeLessThanOrEqual(1);
      const present = page.data.filter(
        (job) => valueAt(job, field) !== null && valueAt(job, field) !== undefined,
      ).length;
      expect(fraction).toBeCloseTo(present / page.data.length, 2);
    }
    expect(metadata.latency_ms).toBeGreaterThan(0);
  });
});

function valueAt(job: Job, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      job,
    );
}
