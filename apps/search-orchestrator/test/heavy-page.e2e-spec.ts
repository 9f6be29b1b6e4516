import { AccountSchema } from '@jobs/contracts';
import { addWorldCompany, admin, api, createAccount, uniqueWord, wholeLedger } from '@jobs/e2e-support';
import { searchPage } from './search-pages.js';

/**
 * A page heavier than the broker takes in one message as written: descriptions have no bound in
 * the contract, and sixty openings of 20,000 characters (the simulator's most) make a page of
 * about 1.3 MB, past the broker's 1 MiB. It is answered whole and charged once per job; and a
 * page that could not leave would never leave a charge behind it.
 */
const cap = (word: string) => `${word[0]!.toUpperCase()}${word.slice(1)}`;
const VOCABULARY = ['build', 'systems', 'team', 'customers', 'data', 'platform', 'ship', 'reliable', 'we', 'you'];

/** Text like a long job description: words, not one letter repeated (that would shrink to nothing). */
function longDescription(seed: number): string {
  const words: string[] = [];
  let x = seed;
  let length = 0;
  while (length < 19_900) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const word = `${VOCABULARY[x % VOCABULARY.length]}${x % 97}`;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ').slice(0, 20_000);
}

describe('a page heavier than one broker message', () => {
  it('is answered whole and charged once per job', async () => {
    const word = uniqueWord();
    const company = await addWorldCompany();
    const count = 60;
    for (let i = 0; i < count; i++)
      await admin(
        'POST',
        '/world/jobs',
        {
          company_domain: company,
          title: `${cap(word)} ${cap(uniqueWord())} Engineer`,
          providers: ['provider_a'],
          location: { city: 'London', region: 'England', country_code: 'GB', remote: false },
          description: longDescription(i + 1),
        },
        201,
      );
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 500 });
    const page = await searchPage(key, {
      filters: { title_or: [word] },
      waterfall: { strategy: 'max_coverage' },
      limit: 100,
    });
    expect(page.data).toHaveLength(count);
    expect(JSON.stringify(page.data).length).toBeGreaterThan(1024 * 1024);
    expect(page.data.every((job) => (job.description?.length ?? 0) >= 19_000)).toBe(true);
    expect(page.metadata.credits_charged).toBe(count);
    expect(AccountSchema.parse((await api('/v1/account', { key })).body).credits_remaining).toBe(500 - count);
    expect((await wholeLedger(key)).map((line) => line.job_id).sort()).toEqual(page.data.map((j) => j.id).sort());
  });
});
