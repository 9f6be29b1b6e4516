// The dry-run estimate counts every page: the same whatever `limit`, from the store's count and
// what the planned partners list beyond the store; walking every page afterwards lands in its
// range, its credits subtract the jobs the account already paid for, and a small count is not
// told exactly.
import { DryRunEstimateSchema, JobSearchResponseSchema, type DryRunEstimate } from '@jobs/contracts';
import { addWorldCompany, addWorldJob, api, createAccount, uniqueWord, type ProviderSlug } from '@jobs/e2e-support';
import { allPages } from './search-pages.js';

async function estimate(key: string, body: Record<string, unknown>): Promise<DryRunEstimate['estimate']> {
  const res = await api('/v1/jobs/search', { key, body: { ...body, dry_run: true } });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-credits-charged')).toBe('0');
  return DryRunEstimateSchema.parse(res.body).estimate;
}

const uniqueIds = (pages: Array<{ data: Array<{ id: string }> }>) =>
  new Set(pages.flatMap((page) => page.data.map((job) => job.id)));

describe('the dry-run estimate', () => {
  it(
    'for jobs only the own index lists: the same range whatever ' +
      'the limit, the true number in it, and a page of new jobs ' +
      'costs the page',
    async () => {
      const word = uniqueWord();
      const company = await addWorldCompany();
      const OPENINGS = 12;
      for (let i = 0; i < OPENINGS; i++)
        await addWorldJob({ providers: ['own_index'], shared_word: word, company_domain: company });
      const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
      const body = { filters: { title_or: [word] }, waterfall: { strategy: 'max_coverage' } };

      // made before any page is read (api() runs the refresh pass that sweeps the openings into the store first)
      const byLimit = new Map<number, DryRunEstimate['estimate']>();
      for (const limit of [1, 2, 5, 25, 100]) byLimit.set(limit, await estimate(key, { ...body, limit }));
      const ranges = [...byLimit.values()].map((e) => e.expected_unique_jobs_range);
      expect(ranges.every((range) => range.min === ranges[0]!.min && range.max === ranges[0]!.max)).toBe(true);
      const range = ranges[0]!;
      expect(byLimit.get(5)!.providers_planned).toHaveLength(7);
      // nothing paid yet: one page costs the page (never 0 at its least), up to all the matches
      expect(byLimit.get(5)!.credits_range).toEqual({ min: 5, max: 5 });
      expect(byLimit.get(25)!.credits_range).toEqual({ min: range.min, max: Math.min(25, range.max) });
      // max_credits caps it
      expect(
        (await estimate(key, { ...body, limit: 5, waterfall: { strategy: 'max_coverage', max_credits: 3 } }))
          .credits_range,
      ).toEqual({ min: 3, max: 3 });

      // every page, three at a time: the true number lies in the range made before (here, exactly it)
      const pages = await allPages(key, { ...body, limit: 3 }, 20);
      const walked = uniqueIds(pages).size;
      expect(walked).toBe(OPENINGS);
      expect(range.min).toBeLessThanOrEqual(walked);
      expect(range.max).toBeGreaterThanOrEqual(walked);
      expect(range).toEqual({ min: OPENINGS, max: OPENINGS });

      // every match is paid for now: the same request costs nothing, whatever the limit
      const after = await estimate(key, { ...body, limit: 5 });
      expect(after.expected_unique_jobs_range).toEqual(range);
      expect(after.credits_range).toEqual({ min: 0, max: 0 });
    },
  );

  it('subtracts only the jobs already paid for: the next page costs within the range it gave', async () => {
    const word = uniqueWord();
    const company = await addWorldCompany();
    for (let i = 0; i < 12; i++)
      await addWorldJob({ providers: ['own_index'], shared_word: word, company_domain: company });
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    const body = { filters: { title_or: [word] }, waterfall: { strategy: 'own_only' } };
    // pay for three of the twelve
    const first = JobSearchResponseSchema.parse(
      (await api('/v1/jobs/search', { key, body: { ...body, limit: 3 } })).body,
    );
    expect(first.metadata.credits_charged).toBe(3);

    const { credits_range: credits } = await estimate(key, { ...body, limit: 5 });
    // a page of 5 over 12 matches, 3 of them paid: at least 2 new, at most 5
    expect(credits).toEqual({ min: 2, max: 5 });
    const page = JobSearchResponseSchema.parse(
      (await api('/v1/jobs/search', { key, body: { ...body, limit: 5 } })).body,
    );
    expect(page.metadata.credits_charged).toBeGreaterThanOrEqual(credits.min);
    expect(page.metadata.credits_charged).toBeLessThanOrEqual(credits.max);
  });

  it(
    'with partners: what they list beyond the store widens the range, ' + 'and a walk of every page lands in it',
    async () => {
      const word = uniqueWord();
      const company = await addWorldCompany();
      const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
      const waterfall = {
        strategy: 'max_coverage',
        providers: ['own_index', 'provider_a', 'provider_b', 'provider_c'],
      };
      const body = { filters: { title_or: [word] }, waterfall };
      // the own crawler's openings are swept into the store (the refresh pass api() awaits) ...
      for (let i = 0; i < 10; i++)
        await addWorldJob({
          providers: i === 0 ? ['own_index', 'provider_a'] : ['own_index'],
          shared_word: word,
          company_domain: company,
        });
      const stored = (await estimate(key, { ...body, limit: 1 })).expected_unique_jobs_range;
      // every posting is in the store: the range is the store's count
      expect(stored).toEqual({ min: 10, max: 10 });
      // ... and partners' new ones are not, until a search (or the next refresh pass) reads them
      const partnersOnly: ProviderSlug[][] = [
        ['provider_a'],
        ['provider_a', 'provider_c'],
        ['provider_c'],
        ['provider_b'],
      ];
      for (const providers of partnersOnly)
        await addWorldJob({ providers, shared_word: word, company_domain: company });

      const range = (await estimate(key, { ...body, limit: 1 })).expected_unique_jobs_range;
      // the store's 10 (14 if a periodic refresh pass read the partners' meanwhile), and at most what provider_a (2),
      // provider_c (2) and provider_b (1) list beyond it, with a slack for jobs opening while the pages are walked
      expect([10, 14]).toContain(range.min);
      expect(range.max).toBeLessThanOrEqual(range.min + 5 + 4);

      const walked = uniqueIds(await allPages(key, { ...body, limit: 3 }, 20)).size;
      expect(walked).toBe(10 + partnersOnly.length);
      expect(walked).toBeGreaterThanOrEqual(range.min);
      expect(walked).toBeLessThanOrEqual(range.max);
      // now the store holds every posting: the range is the exact count
      expect((await estimate(key, { ...body, limit: 1 })).expected_unique_jobs_range).toEqual({ min: 14, max: 14 });
    },
  );

  it('does not tell a small count: one job or none matching a field filter both answer 0 to 10', async () => {
    const word = uniqueWord();
    const company = await addWorldCompany();
    await addWorldJob({
      providers: ['own_index'],
      shared_word: word,
      company_domain: company,
      salary: { min: 80_000, max: 90_000, currency: 'GBP', period: 'year' },
    });
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    const ask = (salary: number) =>
      estimate(key, {
        filters: { title_or: [word], company_domain_or: [company], salary_min_gte: salary },
        waterfall: { strategy: 'own_only' },
        limit: 5,
      });
    for (const salary of [50_000, 85_000])
      expect(await ask(salary)).toMatchObject({
        expected_unique_jobs_range: { min: 0, max: 10 },
        credits_range: { min: 0, max: 5 },
      });
    // nothing at all under a title and company alone: 0 to 0
    expect(
      (await estimate(key, { filters: { title_or: [uniqueWord()] }, waterfall: { strategy: 'own_only' } }))
        .expected_unique_jobs_range,
    ).toEqual({ min: 0, max: 0 });
  });
});
