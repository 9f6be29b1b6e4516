import { addWorldCompany, addWorldJob, createAccount, uniqueWord, type ProviderSlug } from '@jobs/e2e-support';
import { allPages, searchPage } from './search-pages.js';

/**
 * A search's answer on an unchanged store: the same pages in the same order, and
 * `contributions` counting the jobs each page shows (the jobs a `max_credits` cap kept back
 * not counted).
 */
describe('a search answer', () => {
  it('is the same pages in the same order for the same request, contributions summing to each page', async () => {
    const word = uniqueWord();
    const company = await addWorldCompany();
    const mixes: ProviderSlug[][] = [['own_index'], ['own_index', 'provider_a'], ['provider_a'], ['provider_c']];
    for (let i = 0; i < 12; i++)
      await addWorldJob({ providers: mixes[i % mixes.length]!, shared_word: word, company_domain: company });
    const body = {
      filters: { title_or: [word] },
      waterfall: { strategy: 'max_coverage', providers: ['own_index', 'provider_a', 'provider_c'] },
      limit: 5,
    };
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    // the first walk brings the partners' postings into the store; the store stands still after it
    const first = await allPages(key, body, 10);
    const again = await allPages(key, body, 10);
    const ids = (pages: typeof first) => pages.map((p) => p.data.map((j) => j.id));
    expect(ids(again)).toEqual(ids(first));
    expect(new Set(ids(first).flat()).size).toBe(12);
    for (const page of again) {
      const { contributions } = page.metadata.providers;
      expect(Object.values(contributions).reduce((sum, n) => sum + (n ?? 0), 0)).toBe(page.data.length);
    }

    // a cap of 0 on an account that paid for nothing returns nothing, and counts nothing
    const { live_key: other } = await createAccount({ plan: 'pro', credits: 100 });
    const capped = await searchPage(other, { ...body, waterfall: { ...body.waterfall, max_credits: 0 } });
    expect(capped.data).toEqual([]);
    expect(Object.values(capped.metadata.providers.contributions).every((n) => n === 0)).toBe(true);
  });
});
