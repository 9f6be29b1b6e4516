import { allPages, lower } from './search-pages.js';
import { addWorldCompany, admin, createAccount, uniqueWord, wholeLedger, type ProviderSlug } from '@jobs/e2e-support';

/**
 * Paging to the end: `next_cursor` stays non-null while further matching jobs exist, and
 * following it yields every match exactly once, for small and large `limit` and every strategy,
 * with more matches than one provider fetch returns (each provider is read `limit` at a time and
 * read further, from its own cursor or the store's keyset, when a page reaches the end of what
 * the search holds). Each page is billed on its own: the credits add up to the matches once.
 */
const cap = (word: string) => `${word[0]!.toUpperCase()}${word.slice(1)}`;
/** Who lists each opening, in turn: partners alone, the own crawler alone, and overlaps. */
const LISTINGS: ProviderSlug[][] = [
  ['provider_a'],
  ['own_index'],
  ['provider_a', 'provider_c'],
  ['provider_c'],
  ['own_index', 'provider_a'],
  ['provider_b'],
];

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
        location: { city: 'Leeds', region: 'England', country_code: 'GB', remote: false },
      },
      201,
    );
    titles.push(title);
  }
  return titles;
}

describe('paging a search to its end', () => {
  const word = uniqueWord();
  let titles: string[];

  beforeAll(async () => {
    titles = await openings(word, 14);
  }, 120_000);

  it.each([
    ['cheapest_first', 1],
    ['cheapest_first', 3],
    ['max_coverage', 2],
    ['max_coverage', 100],
    ['freshest_first', 4],
    ['consensus', 1],
  ] as const)(
    '%s with limit %d yields every match exactly once, each page billed once',
    async (strategy, limit) => {
      const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
      const pages = await allPages(key, { filters: { title_or: [word] }, waterfall: { strategy }, limit }, 60);
      const seen = pages.flatMap((p) => p.data);
      // consensus keeps the openings listed by at least two sources
      const expected =
        strategy === 'consensus' ? titles.filter((_, i) => LISTINGS[i % LISTINGS.length]!.length >= 2) : titles;
      expect(lower(seen.map((j) => j.title))).toEqual(lower(expected));
      expect(new Set(seen.map((j) => j.id)).size).toBe(seen.length);
      for (const page of pages) {
        expect(page.data.length).toBeLessThanOrEqual(limit);
        // a page's metadata names every provider whose jobs it returns: the set's providers so far
        const { tried, hit, contributions } = page.metadata.providers;
        const credited = Object.entries(contributions).flatMap(([provider, n]) => (n > 0 ? [provider] : []));
        expect(credited.filter((p) => !tried.includes(p as ProviderSlug))).toEqual([]);
        expect(hit.filter((p) => !tried.includes(p))).toEqual([]);
      }
      // more matches than one fetch of one provider brings: the search read further
      if (limit < 5) expect(pages.length).toBeGreaterThan(2);
      const charged = pages.reduce((sum, p) => sum + p.metadata.credits_charged, 0);
      expect(charged).toBe(expected.length);
      const ledger = await wholeLedger(key);
      expect(
        ledger
          .filter((l) => l.reason === 'charged')
          .map((l) => l.job_id)
          .sort(),
      ).toEqual(seen.map((j) => j.id).sort());
    },
    300_000,
  );
});
