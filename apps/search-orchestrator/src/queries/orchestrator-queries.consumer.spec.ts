import type { OrchestratorQueryRequested } from '@jobs/contracts';
import type { QueryAnswers } from '@jobs/nest-kafka';
import type { CreateAsyncSearchUseCase } from '../async-search/create-async-search.usecase.js';
import type { ReadAsyncSearchUseCase } from '../async-search/read-async-search.usecase.js';
import type { ManageWatchesUseCase } from '../watches/manage-watches.usecase.js';
import type { WebhookUrlUsageUseCase } from '../webhook-urls/webhook-url-usage.usecase.js';
import { OrchestratorQueriesConsumer } from './orchestrator-queries.consumer.js';

/** The consumer with its use cases recording what they were asked, and what it answered. */
function consumer() {
  const made: string[] = [];
  const answered: Array<{ code?: string }> = [];
  const answers = {
    answer: async (_id: string, run: () => Promise<unknown>) => {
      try {
        await run();
        answered.push({});
      } catch (error) {
        answered.push({ code: (error as { code: string }).code });
      }
    },
  };
  const it = new OrchestratorQueriesConsumer(
    {
      create: async () => void made.push('watch'),
      list: async () => ({ data: [], next_cursor: null }),
    } as unknown as ManageWatchesUseCase,
    { execute: async () => void made.push('search') } as unknown as CreateAsyncSearchUseCase,
    {} as ReadAsyncSearchUseCase,
    {} as WebhookUrlUsageUseCase,
    answers as unknown as QueryAnswers,
  );
  return { it, made, answered };
}

const message = (query: OrchestratorQueryRequested.Value['query'], answerBy?: string) =>
  ({
    v: 1,
    query_id: 'req_1',
    account_id: 'acc_1',
    plan: 'pro',
    mode: 'live',
    providers_enabled: ['own_index'],
    query,
    ...(answerBy ? { answer_by: answerBy } : {}),
  }) as OrchestratorQueryRequested.Value;

describe('orchestrator queries and the moment their asker stops waiting', () => {
  const past = new Date(Date.now() - 1_000).toISOString();
  const future = new Date(Date.now() + 60_000).toISOString();
  const search = {
    kind: 'async.create',
    search_id: 'srch_1',
    request: {},
  } as unknown as OrchestratorQueryRequested.Value['query'];
  const watch = {
    kind: 'watch.create',
    watch_id: 'wat_1',
    request: {},
  } as unknown as OrchestratorQueryRequested.Value['query'];

  it('makes a search or a watch asked in time, or with no moment named', async () => {
    const { it: c, made } = consumer();
    await c.onQuery(message(search, future));
    await c.onQuery(message(watch));
    expect(made).toEqual(['search', 'watch']);
  });

  it('makes nothing once the gateway stopped waiting, and answers internal_error; reads still answer', async () => {
    const { it: c, made, answered } = consumer();
    await c.onQuery(message(search, past));
    await c.onQuery(message(watch, past));
    await c.onQuery(message({ kind: 'watch.list' }, past));
    expect(made).toEqual([]);
    expect(answered).toEqual([{ code: 'internal_error' }, { code: 'internal_error' }, {}]);
  });
});
