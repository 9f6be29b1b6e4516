import { AccountSchema, type JobSearchResponse } from '@jobs/contracts';
import { allPages, lower, searchPage } from './search-pages.js';
import {
  addWorldCompany,
  admin,
  api,
  createAccount,
  uniqueWord,
  wholeLedger,
  type ProviderSlug,
} from '@jobs/e2e-support';

/**
 * A page cut at `waterfall.max_credits` continues right after its last returned job: following
 * the cursors of a capped search pages the whole result set, no gap, no repeat.
 *
 * The openings are made for the test (one shared title word, each at its own company so no two
 * are one opening), so the result set is known exactly: the same whatever the rest of the
 * simulated market does meanwhile. Each provider lists fewer of them than `limit`, so every
 * provider returns all of its own and every search's set is all of them.
 */
const cap = (word: string) => `${word[0]!.toUpperCase()}${word.slice(1)}`;
const LISTINGS: ProviderSlug[][] = [
  ['own_index', 'provider_a'],
  ['provider_b'],
  ['provider_c', 'provider_e'],
  ['provider_f', 'provider_a', 'own_index'],
  ['provider_e', 'provider_b'],
];

/** `count` openings whose titles share `word`; returns their titles. */
async function openings(word: string, count: number): Promise<string[]> {
  const titles: string[] = [];
  for (let i = 0; i < count; i++) {
    const title = `${cap(word)} ${cap(uniqueWord())} Analyst`;
    await admin(
      'POST',
      '/world/jobs',
      {
        company_domain: await addWorldCompany(),
        title,
        providers: LISTINGS[i % LISTINGS.length],
        location: { city: 'London', region: 'England', country_code: 'GB', remote: false },
        employment_type: 'full_time',
        seniority: 'mid',
        description: `${title}: a test opening.`,
      },
      201,
    );
    titles.push(title);
  }
  return titles;
}

const titlesOf = (pages: readonly JobSearchResponse[]) => lower(pages.flatMap((p) => p.data.map((j) => j.title)));

const creditsOf = async (key: string) =>
  AccountSchema.parse((await api('/v1/account', { key })).body).credits_remaining;

describe('paging a search capped by max_credits', () => {
  const word = uniqueWord();
  let titles: string[];
  const uncapped = { filters: { title_or: [word] }, waterfall: { strategy: 'max_coverage' }, limit: 10 };
  const capped = { ...uncapped, waterfall: { strategy: 'max_coverage', max_credits: 3 } };

  beforeAll(async () => {
    titles = await openings(word, 14);
  });

  it(
    'continues each capped page right after its last job: the ' + 'whole set, no gap, no repeat, one charge per job',
    async () => {
      const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
      const pages = await allPages(key, capped, 20);

      // limit 10, cap 3, 14 jobs: 3 + 3 + 3 + 3 + 2, each page all new and fully charged.
      expect(pages[0]!.data).toHaveLength(3);
      expect(pages[0]!.next_cursor).not.toBeNull();
      expect(pages.map((p) => p.data.length)).toEqual([3, 3, 3, 3, 2]);
      for (const page of pages) {
        expect(page.metadata.status).toBe('complete');
        expect(page.metadata.credits_charged).toBe(page.data.length);
        expect(page.metadata.jobs_already_paid).toBe(0);
      }
      const ids = pages.flatMap((p) => p.data.map((j) => j.id));
      expect(new Set(ids).size).toBe(ids.length);
      // Exactly the openings made for the test, each once (a provider may lower-case a title).
      expect(titlesOf(pages)).toEqual(lower(titles));
      expect(await creditsOf(key)).toBe(100 - 14);

      // The ledger: one charge per returned job, nothing else.
      const ledger = await wholeLedger(key);
      expect(
        ledger.every((l) => l.reason === 'charged' && l.credits === 1 && l.operation === 'POST /v1/jobs/search'),
      ).toBe(true);
      expect(ledger.map((l) => l.job_id).sort()).toEqual([...ids].sort());

      // Another account pages the same search uncapped: the same result set (its order may differ:
      // the own index now also answers from the store, where the first search put these jobs).
      const other = (await createAccount({ plan: 'pro', credits: 100 })).live_key;
      const full = await allPages(other, uncapped, 20);
      expect(full.map((p) => p.data.length)).toEqual([10, 4]);
      expect(full.flatMap((p) => p.data.map((j) => j.id)).sort()).toEqual([...ids].sort());

      // Re-read uncapped by the payer: all of them again, already paid, free.
      const reread = await searchPage(key, { ...uncapped, limit: 100 });
      expect(reread.data.map((j) => j.id).sort()).toEqual([...ids].sort());
      expect(reread.metadata).toMatchObject({ credits_charged: 0, jobs_already_paid: 14, credits_remaining: 86 });
    },
  );

  it('gives a cursor to a first page cut by the cap even when the whole set fits in one page', async () => {
    const small = uniqueWord();
    const smallTitles = await openings(small, 4);
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    const pages = await allPages(
      key,
      { filters: { title_or: [small] }, waterfall: { strategy: 'max_coverage', max_credits: 3 }, limit: 10 },
      20,
    );
    expect(pages.map((p) => p.data.length)).toEqual([3, 1]);
    expect(titlesOf(pages)).toEqual(lower(smallTitles));
    expect(pages.map((p) => p.metadata.credits_charged)).toEqual([3, 1]);
    expect(await creditsOf(key)).toBe(96);
  });
});
