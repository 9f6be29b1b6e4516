import { Injectable } from '@nestjs/common';
import type { Watch, WatchCreateRequest, WatchListResponse, WatchStatus } from '@jobs/contracts';
import type { Principal } from '../auth/api-key.js';
import { claimedId } from '../idempotency/claimed-id.js';
import type { IdempotencyClaim } from '../idempotency/idempotency.gate.js';
import { orchestratorQueryHeader } from '../messaging/orchestrator-query-header.js';
import { QueryClient } from '../messaging/query-client.js';
import { WebhookTargetCheck } from '../webhook-endpoints/webhook-target.check.js';

/**
 * POST, GET and DELETE /v1/watches, and pausing or resuming a watch (the dashboard's): the
 * orchestrator owns watches and answers over Kafka (`orchestrator.query.requested` kinds
 * watch.*); it also refuses plans below Pro.
 */
@Injectable()
export class AskWatchesUseCase {
  constructor(
    private readonly queries: QueryClient,
    private readonly webhookTargets: WebhookTargetCheck,
  ) {}

  /**
   * The watch id is minted here: from the Idempotency-Key and the body when there is a key, so a
   * retry after a 5xx names the same watch and the orchestrator creates it once.
   */
  async create(
    principal: Principal,
    request: WatchCreateRequest,
    requestId: string,
    idempotency: IdempotencyClaim | undefined,
  ): Promise<Watch> {
    await this.webhookTargets.assertAllowed(request.webhook_url);
    const watchId = claimedId('wat', 'watch', idempotency);
    const { watch } = await this.queries.askOrchestrator({
      ...orchestratorQueryHeader(principal, requestId),
      query: { kind: 'watch.create', watch_id: watchId, request: withoutNulls(request) },
    });
    return watch;
  }

  async list(principal: Principal, cursor: string | undefined, requestId: string): Promise<WatchListResponse> {
    const { page } = await this.queries.askOrchestrator({
      ...orchestratorQueryHeader(principal, requestId),
      query: { kind: 'watch.list', ...(cursor ? { cursor } : {}) },
    });
    return page;
  }

  async delete(principal: Principal, watchId: string, requestId: string): Promise<void> {
    await this.queries.askOrchestrator({
      ...orchestratorQueryHeader(principal, requestId),
      query: { kind: 'watch.delete', watch_id: watchId },
    });
  }

  /** Pauses (`paused`) or resumes (`active`) the account's watch; 404 for an unknown or another account's id. */
  async setStatus(principal: Principal, watchId: string, status: WatchStatus, requestId: string): Promise<Watch> {
    const { watch } = await this.queries.askOrchestrator({
      ...orchestratorQueryHeader(principal, requestId),
      query: { kind: 'watch.set_status', watch_id: watchId, status },
    });
    return watch;
  }
}

/**
 * The request as an orchestrator of the previous release reads it: a `domain` or `filters` sent
 * as null (accepted as absent) is left out, not forwarded.
 */
function withoutNulls(request: WatchCreateRequest): WatchCreateRequest {
  const { domain, filters, ...rest } = request;
  return { ...rest, ...(domain != null ? { domain } : {}), ...(filters != null ? { filters } : {}) };
}
