import { addWorldCompany, addWorldJob, createAccount, stack, uniqueWord, wholeLedger } from '@jobs/e2e-support';
import { JobsClient, type FetchLike, type JobSearchResponse } from '../src/index.js';

/**
 * A budget for a whole search walk (`maxCredits` of `searchPages` / `searchAll`) against the
 * running stack: each page is sent the remainder as `waterfall.max_credits`, the walk stops once
 * it is spent, the account is charged exactly the budget, and a later walk continues from the
 * cursor where the budget stopped, skipping nothing.
 */
const realFetch: FetchLike = (url, init) => fetch(url, init as RequestInit);

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('searchPages with maxCredits', () => {
  it(
    'charges no more than the budget over the whole walk, stops ' +
      'when it is spent, and the next walk goes on from there',
    async () => {
      const word = uniqueWord();
      const company = await addWorldCompany();
      const OPENINGS = 7;
      for (let i = 0; i < OPENINGS; i++)
        await addWorldJob({ providers: ['provider_a'], shared_word: word, company_domain: company });
      const { live_key } = await createAccount({ plan: 'pro', credits: 100 });
      const sent: Array<{ max_credits?: number; cursor?: string }> = [];
      const recording: FetchLike = (url, init) => {
        if (url.endsWith('/jobs/search')) {
          const body = JSON.parse(String(init.body)) as { waterfall?: { max_credits?: number }; cursor?: string };
          sent.push({ max_credits: body.waterfall?.max_credits, ...(body.cursor ? { cursor: body.cursor } : {}) });
        }
        return realFetch(url, init);
      };
      const client = new JobsClient({ baseUrl: stack.baseUrl, apiKey: live_key, fetch: recording });
      const body = {
        filters: { title_or: [word] },
        waterfall: { strategy: 'max_coverage' as const, providers: ['provider_a' as const] },
        limit: 3,
      };

      const pages: JobSearchResponse[] = await collect(client.jobs.searchPages(body, { maxCredits: 5 }));
      expect(sent.map((s) => s.max_credits)).toEqual([5, 2]);
      expect(pages.map((p) => p.metadata.credits_charged)).toEqual([3, 2]);
      expect(pages.flatMap((p) => p.data)).toHaveLength(5);
      const stoppedAt = pages.at(-1)!.next_cursor;
      expect(stoppedAt).not.toBeNull(); // jobs were left: the budget ended the walk
      expect((await client.account()).credits_remaining).toBe(95);
      expect(
        (await wholeLedger(live_key))
          .filter((line) => line.reason === 'charged')
          .reduce((sum, line) => sum + line.credits, 0),
      ).toBe(5);

      // a new budget from where the first stopped: the rest, once each, with another max_credits on the same result set
      sent.length = 0;
      const rest = await collect(client.jobs.searchAll({ ...body, cursor: stoppedAt! }, { maxCredits: 10 }));
      expect(sent[0]).toEqual({ max_credits: 10, cursor: stoppedAt });
      expect(rest).toHaveLength(OPENINGS - 5);
      const seen = [...pages.flatMap((p) => p.data), ...rest].map((job) => job.id);
      expect(new Set(seen).size).toBe(OPENINGS);
      expect((await client.account()).credits_remaining).toBe(100 - OPENINGS);

      // a budget of 0 reads one page of jobs already paid for, free
      sent.length = 0;
      const free = await collect(client.jobs.searchPages(body, { maxCredits: 0 }));
      expect(sent.map((s) => s.max_credits)).toEqual([0]);
      expect(free).toHaveLength(1);
      expect(free[0]!.data).toHaveLength(3);
      expect(free[0]!.metadata).toMatchObject({ credits_charged: 0, jobs_already_paid: 3 });
    },
  );
});
