// Against the real Redis of REDIS_URL (default redis://127.0.0.1:6379), under random ids, removed afterwards.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { examples, type Job, type SearchContinuation } from '@jobs/contracts';
import type { ProviderBatch, SearchResult } from '@jobs/waterfall';
import { AnswerFirstPageUseCase } from './answer-first-page.usecase.js';
import type { GatheredResult } from './gathered-result.js';
import { ResultSetStore } from './result-sets.store.js';
import type { SearchAnswers } from './search-answers.js';
import { gatheredMessagesKey, type SearchState } from './search-state.store.js';

const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
const searchId = `req_firstpage${randomUUID().replaceAll('-', '')}`;

afterAll(async () => {
  await redis.del(
    `orchestrator:resultset:${searchId}`,
    `orchestrator:resultset:${searchId}:jobs`,
    gatheredMessagesKey(searchId),
  );
  redis.disconnect();
});

const jobs: Job[] = Array.from({ length: 30 }, (_, i) => ({ ...examples.job(), id: `job_first_${i}` }));
const state: SearchState = {
  request: { ...examples.searchRequested(), search_id: searchId },
  plan: { providers: ['own_index'], waves: [['own_index']] } as unknown as SearchState['plan'],
  wave: 0,
  startedAt: Date.now(),
};
const result: SearchResult = {
  matching: jobs,
  metadata: examples.searchPageGathered().response.metadata,
  creditedTo: Object.fromEntries(jobs.map((j) => [j.id, 'own_index' as const])),
};

describe('AnswerFirstPageUseCase', () => {
  it('answers a retry after a refused publish from the set it kept, not from the moved messages', async () => {
    await redis.hset(gatheredMessagesKey(searchId), 'own_index', JSON.stringify({ jobs, batches: [] }));
    const pages: { ids: string[]; continuation: SearchContinuation | null }[] = [];
    let refuse = true;
    const answers = {
      publishPage: async (
        _s: unknown,
        data: Job[],
        _m: unknown,
        _c: unknown,
        continuation: SearchContinuation | null,
      ) => {
        if (refuse) throw new Error('Kafka refused the page');
        pages.push({ ids: data.map((j) => j.id), continuation });
      },
    } as unknown as SearchAnswers;
    // what the store's batches read gives once the messages moved: nothing
    const gathered = {
      batches: async (_s: SearchState, given?: ProviderBatch[]) => given ?? [],
      of: (): SearchResult => ({ ...result, matching: [], creditedTo: {} }),
    } as unknown as GatheredResult;
    const useCase = new AnswerFirstPageUseCase(gathered, new ResultSetStore(redis), answers);

    await expect(useCase.execute(state, result, [])).rejects.toThrow('Kafka refused the page');
    expect(await redis.exists(gatheredMessagesKey(searchId))).toBe(0);

    refuse = false;
    await useCase.execute(state);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.ids).toEqual(jobs.slice(0, 25).map((j) => j.id));
    expect(pages[0]!.continuation).toMatchObject({ set: searchId, page_start: 0, set_size: 30 });
  });
});
