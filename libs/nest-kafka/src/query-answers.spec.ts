import { Topics } from '@jobs/contracts';
import type { KafkaPublisher } from './kafka-publisher.js';
import { QueryAnswers, QueryFailure } from './query-answers.js';

describe('QueryAnswers', () => {
  const published: unknown[] = [];
  const publisher = {
    publish: async (topic: { name: string }, value: unknown) => void published.push([topic.name, value]),
  } as unknown as KafkaPublisher;
  const answers = new QueryAnswers(publisher);
  beforeEach(() => (published.length = 0));

  it('answers the result', async () => {
    await answers.answer('req_q1', async () => ({ kind: 'watch.delete', deleted: true }));
    expect(published).toEqual([
      [
        Topics.QueryResponded.name,
        { v: 1, query_id: 'req_q1', outcome: 'ok', result: { kind: 'watch.delete', deleted: true } },
      ],
    ]);
  });

  it('answers a QueryFailure as an error the caller hears, with its extras', async () => {
    await answers.answer('req_q2', async () => {
      throw new QueryFailure('insufficient_credits', 'No credits left.', { credits_needed: 1 });
    });
    expect(published).toEqual([
      [
        Topics.QueryResponded.name,
        {
          v: 1,
          query_id: 'req_q2',
          outcome: 'error',
          error: { code: 'insufficient_credits', message: 'No credits left.', credits_needed: 1 },
        },
      ],
    ]);
  });

  it('throws anything else to the consumer (retried or dead-lettered) and answers nothing', async () => {
    await expect(answers.answer('req_q3', async () => Promise.reject(new Error('database down')))).rejects.toThrow(
      'database down',
    );
    expect(published).toEqual([]);
  });
});
