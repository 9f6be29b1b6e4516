// The dry-run estimate counts every page: the same whatever `limit`, from the store's count and
// the planned partners' reported totals; walking every page afterwards lands in its range, and
// its credits subtract the jobs the account already paid for.
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
      const OPENINGS = 7;
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

      // every page, two at a time: the true number lies in the range made before (here, exactly it)
      const pages = await allPages(key, { ...body, limit: 2 }, 20);
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
    for (let i = 0; i < 7; i++)
      await addWorldJob({ providers: ['own_index'], shared_word: word, company_domain: company });
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    const body = { filters: { title_or: [word] }, waterfall: { strategy: 'own_only' } };
    // pay for three of the seven
    const first = JobSearchResponseSchema.parse(
      (await api('/v1/jobs/search', { key, body: { ...body, limit: 3 } })).body,
    );
    expect(first.metadata.credits_charged).toBe(3);

    const { credits_range: credits } = await estimate(key, { ...body, limit: 5 });
    // a page of 5 over 7 matches, 3 of them paid: at least 2 new, at most 4
    expect(credits).toEqual({ min: 2, max: 4 });
    const page = JobSearchResponseSchema.parse(
      (await api('/v1/jobs/search', { key, body: { ...body, limit: 5 } })).body,
    );
    expect(page.metadata.credits_charged).toBeGreaterThanOrEqual(credits.min);
    expect(page.metadata.credits_charged).toBeLessThanOrEqual(credits.max);
  });

  it(
    'with partners: their reported totals count the postings the ' +
      'store has not seen yet, and a walk of every page lands in ' +
      'the range',
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
      for (const providers of [['own_index'], ['own_index'], ['own_index', 'provider_a']] as ProviderSlug[][])
        await addWorldJob({ providers, shared_word: word, company_domain: company });
      expect((await estimate(key, { ...body, limit: 1 })).expected_unique_jobs_range.min).toBe(3);
      // ... and partners' new ones are not, until a search (or the next refresh pass) reads them
      const partnersOnly: ProviderSlug[][] = [
        ['provider_a'],
        ['provider_a', 'provider_c'],
        ['provider_c'],
        ['provider_b'],
      ];
      for (const providers of partnersOnly)
        await addWorldJob({ providers, shared_word: word, company_domain: company });

      // (the limit makes no difference: the first test shows it on a store that stands still; here a
      // periodic refresh pass may read the partners' openings into the store at any moment)
      const range = (await estimate(key, { ...body, limit: 1 })).expected_unique_jobs_range;
      // the store's 3 (7 if a periodic refresh pass read the partners' meanwhile) plus provider_a's 3, provider_c's 2
      // and
      // provider_b's 1
      expect(range.min).toBeGreaterThanOrEqual(3);
      expect(range.max).toBe(range.min + 3 + 2 + 1);

      const walked = uniqueIds(await allPages(key, { ...body, limit: 2 }, 20)).size;
      expect(walked).toBe(3 + partnersOnly.length);
      expect(walked).toBeGreaterThanOrEqual(range.min);
      expect(walked).toBeLessThanOrEqual(range.max);
    },
  );
});
