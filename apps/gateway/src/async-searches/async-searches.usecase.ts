import { Injectable } from '@nestjs/common';
import type { AsyncSearch, AsyncSearchCreateRequest, AsyncSearchReadQuery } from '@jobs/contracts';
import type { Principal } from '../auth/api-key.js';
import { claimedId } from '../idempotency/claimed-id.js';
import type { IdempotencyClaim } from '../idempotency/idempotency.gate.js';
import { orchestratorQueryHeader } from '../messaging/orchestrator-query-header.js';
import { QueryClient } from '../messaging/query-client.js';
import { WebhookTargetCheck } from '../webhook-endpoints/webhook-target.check.js';

/**
 * POST and GET /v1/searches: the orchestrator owns async searches and answers over Kafka
 * (`orchestrator.query.requested` kinds async.create / async.get); it refuses a provider off the
 * plan (403 plan_required) and another account's search (404).
 */
@Injectable()
export class AsyncSearchesUseCase {
  constructor(
    private readonly queries: QueryClient,
    private readonly webhookTargets: WebhookTargetCheck,
  ) {}

  /**
   * The search id is minted here: with an Idempotency-Key it is derived from the key (scoped to
   * the account) and the body, so every retry of that request, after a 500 too, names the same
   * search and the orchestrator creates it once.
   */
  async create(
    principal: Principal,
    request: AsyncSearchCreateRequest,
    requestId: string,
    idempotency: IdempotencyClaim | undefined,
  ): Promise<AsyncSearch> {
    if (request.webhook_url !== undefined) await this.webhookTargets.assertAllowed(request.webhook_url);
    const searchId = claimedId('srch', 'search', idempotency);
    const { search } = await this.queries.askOrchestrator({
      ...orchestratorQueryHeader(principal, requestId),
      query: { kind: 'async.create', search_id: searchId, request },
    });
    return search;
  }

  async read(
    principal: Principal,
    searchId: string,
    read: AsyncSearchReadQuery,
    requestId: string,
  ): Promise<AsyncSearch> {
    const { search } = await this.queries.askOrchestrator({
      ...orchestratorQueryHeader(principal, requestId),
      query: { kind: 'async.get', search_id: searchId, read },
    });
    return search;
  }
}
