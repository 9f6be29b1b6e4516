// Against the real Redis of REDIS_URL (default redis://127.0.0.1:6379): a search of its own,
// under a random id, removed afterwards, in a database no stack uses (a running stack's deadline
// sweeper would otherwise answer the searches opened here).
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { examples } from '@jobs/contracts';
import { SearchStateStore, type GatheredMessage, type SearchState } from './search-state.store.js';

const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', { lazyConnect: true, db: 14 });
const store = new SearchStateStore(redis);
const searchId = `srch_test_${randomUUID()}`;
const job = (id: string) => ({ ...examples.job(), id });

/** Searches a test opened besides `searchId`, removed afterwards as it is. */
const opened: string[] = [];

afterAll(async () => {
  for (const id of [searchId, ...opened]) {
    await redis.del(
      `orchestrator:search:${id}`,
      `orchestrator:search:${id}:pending`,
      `orchestrator:search:${id}:batches`,
      `orchestrator:search:${id}:done`,
    );
    await redis.zrem('orchestrator:deadlines', id);
  }
  redis.disconnect();
});

it(
  'completes a wave with the message that brings its last ' +
    "provider, giving every recorded message's batches, this " +
    "one's last",
  async () => {
    const request = { ...examples.searchRequested(), search_id: searchId };
    const plan: SearchState['plan'] = {
      strategy: 'max_coverage',
      providers: ['provider_a', 'provider_b', 'provider_d'],
      waves: [['provider_a', 'provider_b', 'provider_d']],
    };
    await store.open(searchId, { request, plan, wave: 0, startedAt: Date.now() }, 60);

    const first: GatheredMessage = {
      jobs: [job('job_a1'), job('job_b1')],
      batches: [
        { provider: 'provider_a', outcome: 'ok', recordsIn: 1, duplicatesMerged: 0, fromStore: 0, jobIds: ['job_a1'] },
        { provider: 'provider_b', outcome: 'ok', recordsIn: 1, duplicatesMerged: 0, fromStore: 0, jobIds: ['job_b1'] },
      ],
    };
    const recorded = await store.recordGathered(searchId, first, 60);
    expect(recorded).toMatchObject({ complete: false, firstTime: true });
    expect(recorded?.batches).toBeUndefined();

    // the last provider's part: the wave is complete, the earlier part comes back from Redis
    const last: GatheredMessage = {
      jobs: [job('job_d1'), job('job_a1')],
      batches: [
        {
          provider: 'provider_d',
          outcome: 'ok',
          recordsIn: 2,
          duplicatesMerged: 0,
          fromStore: 0,
          jobIds: ['job_d1', 'job_a1'],
        },
      ],
    };
    const completed = await store.recordGathered(searchId, last, 60);
    expect(completed).toMatchObject({ complete: true, firstTime: true, state: { wave: 0 } });
    expect(completed!.batches!.map((b) => [b.provider, b.jobs.map((j) => j.id)])).toEqual([
      ['provider_a', ['job_a1']],
      ['provider_b', ['job_b1']],
      ['provider_d', ['job_d1', 'job_a1']],
    ]);
    // and a later reader (a deadline completion) gets the same batches (a hash of large values keeps no order)
    expect((await store.batches(searchId)).map((b) => b.provider).sort()).toEqual([
      'provider_a',
      'provider_b',
      'provider_d',
    ]);

    // the same part again (a redelivery) completes nothing a second time
    expect(await store.recordGathered(searchId, last, 60)).toMatchObject({ complete: false, firstTime: false });
  },
);

it(
  "fails a search's opening when one of its commands fails, " + 'instead of leaving a search nobody completes',
  async () => {
    // a database of its own: the deadlines' key is shared by every search
    const other = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', { lazyConnect: true, db: 15 });
    const id = `srch_test_${randomUUID()}`;
    try {
      await other.set('orchestrator:deadlines', 'not a sorted set');
      const request = { ...examples.searchRequested(), search_id: id };
      const plan: SearchState['plan'] = {
        strategy: 'max_coverage',
        providers: ['provider_a'],
        waves: [['provider_a']],
      };
      await expect(
        new SearchStateStore(other).open(id, { request, plan, wave: 0, startedAt: Date.now() }, 60),
      ).rejects.toThrow(/WRONGTYPE/);
    } finally {
      await other.del('orchestrator:deadlines', `orchestrator:search:${id}`, `orchestrator:search:${id}:pending`);
      other.disconnect();
    }
  },
);

it('opens a first page once: a redelivered request neither resets nor reopens it', async () => {
  const id = `srch_test_${randomUUID()}`;
  opened.push(id);
  const request = { ...examples.searchRequested(), search_id: id };
  const plan: SearchState['plan'] = { strategy: 'max_coverage', providers: ['provider_a'], waves: [['provider_a']] };
  const state = { request, plan, wave: 0, startedAt: Date.now() };
  expect(await store.open(id, state, 60, true)).toBe(true);
  expect(await store.isCompleted(id)).toBe(false);
  expect(await store.claimCompletion(id, 60)).toBe(true);
  // the request again: nothing reopened, the completion stands
  expect(await store.open(id, state, 60, true)).toBe(false);
  expect(await store.isCompleted(id)).toBe(true);
  // a result set's next round reopens on purpose
  expect(await store.open(id, state, 60)).toBe(true);
  expect(await store.isCompleted(id)).toBe(false);
});

it('opens a search to a claim again once its claim is released, due at the retry time', async () => {
  expect(await store.claimCompletion(searchId, 60)).toBe(true);
  expect(await store.claimCompletion(searchId, 60)).toBe(false);
  expect(await redis.zscore('orchestrator:deadlines', searchId)).toBeNull();

  const retryAt = Date.now() + 1_000;
  await store.releaseCompletion(searchId, retryAt);
  expect(Number(await redis.zscore('orchestrator:deadlines', searchId))).toBe(retryAt);
  expect(await store.overdue(retryAt - 1, 1_000)).not.toContain(searchId);
  expect(await store.overdue(retryAt, 1_000)).toContain(searchId);
  expect(await store.claimCompletion(searchId, 60)).toBe(true);
});
