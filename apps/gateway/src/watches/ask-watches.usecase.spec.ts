import { PROVIDER_SLUGS, type OrchestratorQueryRequested, type Watch } from '@jobs/contracts';
import type { Principal } from '../auth/api-key.js';
import { WatchStatusRequestSchema } from '../dashboard/dashboard.schema.js';
import type { QueryClient } from '../messaging/query-client.js';
import type { WebhookTargetCheck } from '../webhook-endpoints/webhook-target.check.js';
import { AskWatchesUseCase } from './ask-watches.usecase.js';

const principal: Principal = {
  accountId: 'acc_1',
  mode: 'live',
  keyHash: 'h',
  plan: 'pro',
  rateLimit: 600,
  rateLimitWindowSeconds: 60,
  pinnedVersion: '2026-10-01',
};
const paused: Watch = {
  id: 'wat_1',
  type: 'company',
  domain: 'acme.example',
  filters: null,
  webhook_url: 'https://hooks.example.com/jobs',
  events: ['job.opened'],
  status: 'paused',
  created_at: '2026-10-01T00:00:00.000Z',
};

describe('AskWatchesUseCase.setStatus (gateway)', () => {
  it('asks the orchestrator for watch.set_status under the account, its plan and mode, and answers', async () => {
    const asked: OrchestratorQueryRequested.Value[] = [];
    const queries = {
      askOrchestrator: async (value: OrchestratorQueryRequested.Value) => (
        asked.push(value),
        { kind: 'watch.set_status', watch: paused }
      ),
    } as unknown as QueryClient;
    const useCase = new AskWatchesUseCase(queries, {} as WebhookTargetCheck);

    expect(await useCase.setStatus(principal, 'wat_1', 'paused', 'req_1')).toEqual(paused);
    expect(asked).toEqual([
      expect.objectContaining({
        v: 1,
        query_id: 'req_1',
        account_id: 'acc_1',
        plan: 'pro',
        providers_enabled: [...PROVIDER_SLUGS],
        mode: 'live',
        query: { kind: 'watch.set_status', watch_id: 'wat_1', status: 'paused' },
      }),
    ]);
  });

  it("the dashboard's body names only the two statuses", () => {
    expect(WatchStatusRequestSchema.safeParse({ status: 'paused' }).success).toBe(true);
    expect(WatchStatusRequestSchema.safeParse({ status: 'active' }).success).toBe(true);
    expect(WatchStatusRequestSchema.safeParse({ status: 'deleted' }).success).toBe(false);
    expect(WatchStatusRequestSchema.safeParse({ status: 'paused', events: [] }).success).toBe(false);
  });
});
