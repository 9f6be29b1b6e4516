import { Injectable } from '@nestjs/common';
import type { EventListQuery, EventListResponse, WebhookReplayResponse } from '@jobs/contracts';
import type { Principal } from '../auth/api-key.js';
import { claimedId } from '../idempotency/claimed-id.js';
import type { IdempotencyClaim } from '../idempotency/idempotency.gate.js';
import { QueryClient } from '../messaging/query-client.js';

/**
 * The event feed and replays belong to the webhook-dispatcher; the gateway asks it over Kafka
 * with the key's mode, and the dispatcher answers from that mode's events only (a test key sees
 * its test async searches' `search.completed`, never a live event).
 */
@Injectable()
export class EventFeedUseCase {
  constructor(private readonly queries: QueryClient) {}

  async list(principal: Principal, query: EventListQuery, requestId: string): Promise<EventListResponse> {
    const { page } = await this.queries.askDispatcher({
      v: 1,
      query_id: requestId,
      account_id: principal.accountId,
      mode: principal.mode,
      query: { kind: 'events.list', limit: query.limit, ...(query.since ? { since: query.since } : {}) },
    });
    return page;
  }

  /** Under an Idempotency-Key, a retry after a 500 names the same replay: the event is sent again once. */
  async replay(
    principal: Principal,
    eventId: string,
    requestId: string,
    idempotency?: IdempotencyClaim,
  ): Promise<WebhookReplayResponse> {
    const { replay } = await this.queries.askDispatcher({
      v: 1,
      query_id: requestId,
      account_id: principal.accountId,
      mode: principal.mode,
      query: {
        kind: 'webhook.replay',
        event_id: eventId,
        ...(idempotency ? { replay_id: claimedId('rpl', 'replay', idempotency) } : {}),
      },
    });
    return replay;
  }
}
