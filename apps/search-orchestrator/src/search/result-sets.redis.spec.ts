// Against the real Redis of REDIS_URL (default redis://127.0.0.1:6379), under random ids, removed afterwards.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { examples, type Job } from '@jobs/contracts';
import { ResultSetStore, type ResultSet } from './result-sets.store.js';
import { gatheredMessagesKey } from './search-state.store.js';

const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
const store = new ResultSetStore(redis);
const run = randomUUID();
const used: string[] = [];
const id = (name: string) => {
  const value = `srch_test_${run}_${name}`;
  used.push(`orchestrator:resultset:${value}`, `orchestrator:resultset:${value}:jobs`, gatheredMessagesKey(value));
  return value;
};
const job = (jobId: string, title = 'Engineer'): Job => ({ ...examples.job(), id: jobId, title });
const metadata = examples.searchPageGathered().response.metadata;
const set = (matching: Job[]): ResultSet => ({
  matching,
  creditedTo: Object.fromEntries(matching.map((j) => [j.id, 'provider_a'])),
  metadata,
  fingerprint: 'fp',
  positions: { provider_a: null },
});

afterAll(async () => {
  await redis.del(...used);
  redis.disconnect();
});

it("keeps a first page's set as ids over the search's gathered messages, moved (not copied) to the set", async () => {
  const searchId = id('first');
  const gathered = gatheredMessagesKey(searchId);
  await redis.hset(
    gathered,
    'provider_a,provider_b',
    JSON.stringify({ jobs: [job('job_a'), job('job_b'), job('job_x')], batches: [] }),
    'provider_d',
    JSON.stringify({ jobs: [job('job_d'), job('job_a')], batches: [] }),
  );
  // page order is the set's, whatever the messages' order; a job in no page (job_x) is simply not listed
  await store.keep(searchId, set([job('job_d'), job('job_a'), job('job_b')]), gathered);
  expect(await redis.exists(gathered)).toBe(0);
  expect(await redis.ttl(`orchestrator:resultset:${searchId}:jobs`)).toBeGreaterThan(3500);
  const loaded = await store.load(searchId);
  expect(loaded?.matching.map((j) => j.id)).toEqual(['job_d', 'job_a', 'job_b']);
  expect(loaded).toMatchObject({ fingerprint: 'fp', positions: { provider_a: null }, metadata });
  // the set key holds ids, not bodies
  expect(JSON.parse((await redis.get(`orchestrator:resultset:${searchId}`))!)).not.toHaveProperty('matching');

  // a round that grows the set appends its new jobs only
  await store.grow(searchId, set([...loaded!.matching, job('job_e', 'Designer')]), [job('job_e', 'Designer')], 1);
  const grown = await store.load(searchId);
  expect(grown?.matching.map((j) => [j.id, j.title])).toEqual([
    ['job_d', 'Engineer'],
    ['job_a', 'Engineer'],
    ['job_b', 'Engineer'],
    ['job_e', 'Designer'],
  ]);
});

it('keeps a set without jobs when nothing was gathered (every provider timed out)', async () => {
  const searchId = id('empty');
  await store.keep(searchId, set([]), gatheredMessagesKey(searchId));
  expect((await store.load(searchId))?.matching).toEqual([]);
});

it('reads a set stored whole by the version before, and none once its jobs are gone', async () => {
  const legacy = id('legacy');
  await redis.set(`orchestrator:resultset:${legacy}`, JSON.stringify(set([job('job_l')])), 'EX', 60);
  expect((await store.load(legacy))?.matching.map((j) => j.id)).toEqual(['job_l']);

  const expired = id('expired');
  await redis.hset(gatheredMessagesKey(expired), 'provider_a', JSON.stringify({ jobs: [job('job_a')], batches: [] }));
  await store.keep(expired, set([job('job_a')]), gatheredMessagesKey(expired));
  await redis.del(`orchestrator:resultset:${expired}:jobs`);
  expect(await store.load(expired)).toBeNull();
  expect(await store.load(id('never'))).toBeNull();
});
