import { DispatcherQueryRequested } from '@jobs/contracts';
import type { Principal } from '../auth/api-key.js';
import type { QueryClient } from '../messaging/query-client.js';
import { EventFeedUseCase } from './event-feed.usecase.js';

const principal = { accountId: 'acc_1', mode: 'live' } as Principal;
const claim = {
  key: 'idem:acc_1:live:POST:/v1/webhooks/replay:k1',
  record: { fingerprint: 'fp', state: 'running' as const, request_id: 'req_1', lease_until: 0, service_version: 'v' },
};

function feed() {
  const asked: DispatcherQueryRequested.Value[] = [];
  const queries = {
    askDispatcher: (value: unknown) => {
      asked.push(DispatcherQueryRequested.ValueSchema.parse(value));
      return Promise.resolve({ replay: { event_id: 'evt_1', status: 'queued' } });
    },
  } as unknown as QueryClient;
  return { useCase: new EventFeedUseCase(queries), asked };
}

describe('EventFeedUseCase.replay', () => {
  it('names one replay for every retry of a keyed request, and none without a key', async () => {
    const { useCase, asked } = feed();
    await useCase.replay(principal, 'evt_1', 'req_first', claim);
    await useCase.replay(principal, 'evt_1', 'req_retry', {
      ...claim,
      record: { ...claim.record, request_id: 'req_2' },
    });
    await useCase.replay(principal, 'evt_1', 'req_unkeyed');
    const ids = asked.map((m) => (m.query.kind === 'webhook.replay' ? m.query.replay_id : null));
    expect(ids[0]).toMatch(/^rpl_/);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).toBeUndefined();
    expect(asked.map((m) => m.query_id)).toEqual(['req_first', 'req_retry', 'req_unkeyed']);
  });
});
