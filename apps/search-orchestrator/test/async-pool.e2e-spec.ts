import pg from 'pg';
import { AsyncSearchSchema, type AsyncSearch } from '@jobs/contracts';
import { api, createAccount, resetProviders, setProvider } from '@jobs/e2e-support';

/** ASYNC_SEARCH_MAX_RUNNING of the test stack (the default). */
const POOL_PLACES = 8;
const BODY = {
  filters: { title_or: ['engineer'] },
  waterfall: { strategy: 'max_coverage', providers: ['own_index', 'provider_a'] },
  limit: 200,
};

async function start(key: string): Promise<AsyncSearch> {
  const res = await api('/v1/searches', { key, body: BODY });
  if (res.status !== 202) throw new Error(`POST /v1/searches answered ${res.status}: ${JSON.stringify(res.body)}`);
  return AsyncSearchSchema.parse(res.body);
}

async function finished(key: string, id: string, timeoutMs = 120_000): Promise<AsyncSearch> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await api(`/v1/searches/${id}?limit=1`, { key });
    const search = AsyncSearchSchema.parse(res.body);
    if (['completed', 'partial', 'failed'].includes(search.status)) return search;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`search ${id} did not finish in time`);
}

/**
 * The async pool (docs/admission.md "Async searches"): at most ASYNC_SEARCH_MAX_RUNNING live async searches
 * collect at once; the others wait as `queued`, and a freed place goes to the account with the
 * fewest collecting. Outcomes only: who started before whom, never how long anything took.
 */
describe('the async pool', () => {
  afterAll(() => resetProviders());

  it(
    "makes a busy account's searches beyond the pool wait, and " + "starts another account's search before them",
    async () => {
      // provider_a answers each chunk slowly, so the busy account's searches hold their places.
      await setProvider('provider_a', { latency_ms: 1500 });
      const busy = await createAccount({ plan: 'pro', credits: 100_000 });
      const quiet = await createAccount({ plan: 'pro', credits: 100_000 });
      const busySearches = await Promise.all(Array.from({ length: POOL_PLACES + 4 }, () => start(busy.live_key)));
      const quietSearch = await start(quiet.live_key);
      expect([...busySearches, quietSearch].every((search) => search.status === 'queued')).toBe(true);
      await setProvider('provider_a', { latency_ms: 0 });

      const ends = await Promise.all([
        ...busySearches.map((s) => finished(busy.live_key, s.id)),
        finished(quiet.live_key, quietSearch.id),
      ]);
      expect(ends.every((search) => search.status === 'completed')).toBe(true);

      const db = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
      await db.connect();
      try {
        const { rows } = await db.query<{ id: string; account_id: string; created_at: Date; started_at: Date }>(
          'SELECT id, account_id, created_at, started_at FROM ' +
            'async_searches WHERE account_id = ANY($1) ORDER BY ' +
            'started_at',
          [[busy.account_id, quiet.account_id]],
        );
        expect(rows).toHaveLength(POOL_PLACES + 5);
        const quietRow = rows.find((row) => row.account_id === quiet.account_id)!;
        // Some of the busy account's searches waited for a place (their start came with another's end) ...
        const waited = rows.filter(
          (row) => row.account_id === busy.account_id && row.started_at.getTime() - row.created_at.getTime() > 100,
        );
        expect(waited.length).toBeGreaterThan(0);
        // ... and none of those that were still waiting when the quiet account's search came started before it.
        const waitingThen = rows.filter(
          (row) => row.account_id === busy.account_id && row.started_at > quietRow.created_at,
        );
        expect(waitingThen.filter((row) => row.started_at < quietRow.started_at)).toEqual([]);
      } finally {
        await db.end();
      }
    },
  );
});
