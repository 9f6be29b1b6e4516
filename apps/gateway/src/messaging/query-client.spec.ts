import { examples, type QueryResponded } from '@jobs/contracts';
import type { KafkaPublisher } from '@jobs/nest-kafka';
import { QueryClient } from './query-client.js';

/** The client with a publisher that only records what is asked. */
function client() {
  const sent: Array<{ topic: string; value: Record<string, unknown> }> = [];
  const publisher = {
    publish: async (topic: { name: string }, value: Record<string, unknown>) =>
      void sent.push({ topic: topic.name, value }),
  };
  return { queries: new QueryClient(publisher as unknown as KafkaPublisher), sent };
}

const charge = { v: 1 as const, query_id: 'req_1', account_id: 'acc_1', mode: 'live' as const };
const charged: QueryResponded.Value = {
  v: 1,
  query_id: 'req_1',
  outcome: 'ok',
  result: { kind: 'job.charge', reason: 'charged', credits_charged: 1, credits_remaining: 9 },
};

describe('QueryClient', () => {
  it('waits for its own answer: a late copy of an earlier answer under the same id does not settle it', async () => {
    const { queries } = client();
    const asked = queries.askBilling({
      ...charge,
      query: { kind: 'job.charge', job_id: 'job_1', operation: 'GET /v1/jobs/job_1' },
    });
    await new Promise((resolve) => setImmediate(resolve));
    // dedupe's answer to the job read that came first, sent again after a restart
    queries.replies.settle('req_1', {
      v: 1,
      query_id: 'req_1',
      outcome: 'ok',
      result: { kind: 'job.get', job: examples.job() },
    });
    expect(queries.replies.isWaiting('req_1')).toBe(true);
    queries.replies.settle('req_1', charged);
    await expect(asked).resolves.toMatchObject({ kind: 'job.charge', credits_charged: 1 });
    expect(queries.replies.isWaiting('req_1')).toBe(false);
  });

  it('tells billing when it stops waiting, a margin before its own wait ends', async () => {
    const { queries, sent } = client();
    const before = Date.now();
    const asked = queries.askBilling({
      ...charge,
      query: { kind: 'job.charge', job_id: 'job_1', operation: 'GET /v1/jobs/job_1' },
    });
    await new Promise((resolve) => setImmediate(resolve));
    const answerBy = Date.parse(String(sent[0]!.value['answer_by']));
    expect(answerBy - before).toBeGreaterThanOrEqual(7_000);
    expect(answerBy - Date.now()).toBeLessThanOrEqual(8_000);
    queries.replies.settle('req_1', charged);
    await asked;
  });

  it('tells the orchestrator when it stops waiting too (a create taken later makes nothing)', async () => {
    const { queries, sent } = client();
    const asked = queries.askOrchestrator({
      ...charge,
      plan: 'pro',
      providers_enabled: ['own_index'],
      query: { kind: 'watch.list' },
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(Date.parse(String(sent[0]!.value['answer_by']))).toBeGreaterThan(Date.now());
    queries.replies.settle('req_1', {
      v: 1,
      query_id: 'req_1',
      outcome: 'ok',
      result: { kind: 'watch.list', page: { data: [], next_cursor: null } },
    });
    await asked;
  });
});
