import type { DispatcherQueryRequested } from '@jobs/contracts';
import type { QueryAnswers } from '@jobs/nest-kafka';
import type { DeliveryWorker } from '../deliveries/delivery-worker.js';
import { DispatcherQueriesConsumer } from './dispatcher-queries.consumer.js';
import type { EndpointSecretsUseCase } from './endpoint-secrets.usecase.js';
import type { ListEventsUseCase } from './list-events.usecase.js';
import type { ReplayEventUseCase } from './replay-event.usecase.js';

describe('DispatcherQueriesConsumer, a replay', () => {
  it("marks a replay by a keyed request's replay id, else by the query id", async () => {
    const marks: string[] = [];
    const replay = {
      execute: (_owner: unknown, replayId: string, eventId: string) => {
        marks.push(replayId);
        return Promise.resolve({ event_id: eventId, status: 'queued' as const });
      },
    } as unknown as ReplayEventUseCase;
    const answers = { answer: (_id: string, work: () => Promise<unknown>) => work() } as unknown as QueryAnswers;
    const worker = { kick: () => undefined } as unknown as DeliveryWorker;
    const consumer = new DispatcherQueriesConsumer(
      {} as ListEventsUseCase,
      replay,
      {} as EndpointSecretsUseCase,
      worker,
      answers,
    );
    const ask = (queryId: string, replayId?: string): DispatcherQueryRequested.Value => ({
      v: 1,
      query_id: queryId,
      account_id: 'acc_1',
      mode: 'live',
      query: { kind: 'webhook.replay', event_id: 'evt_1', ...(replayId ? { replay_id: replayId } : {}) },
    });
    // the first attempt and its retry after a 500: two queries, one replay
    await consumer.onQuery(ask('req_first', 'rpl_same'));
    await consumer.onQuery(ask('req_retry', 'rpl_same'));
    await consumer.onQuery(ask('req_unkeyed'));
    expect(marks).toEqual(['rpl_same', 'rpl_same', 'req_unkeyed']);
  });
});
