/**
 * `dispatcher.query.requested` (key: account_id): gateway -> webhook-dispatcher. Reads and
 * commands of what the dispatcher owns (the event feed, deliveries) that an HTTP request waits
 * for: `events.list` (GET /events) and `webhook.replay` (POST /webhooks/replay). The answer comes
 * back on `query.responded` under the same `query_id`; a redelivered replay request makes no
 * second replay (the query id is its idempotency mark).
 */
import { z } from 'zod';
import { ApiKeyModeSchema } from '../public/headers.schema.js';
import { AccountIdSchema, CursorSchema, EventIdSchema, RequestIdSchema } from '../public/ids.schema.js';
import { PAGE_LIMITS } from '../public/pagination.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const EventsListQuerySchema = z.strictObject({
  kind: z.literal('events.list'),
  since: CursorSchema.optional(),
  limit: z.number().int().min(PAGE_LIMITS.events.min).max(PAGE_LIMITS.events.max),
});
export const WebhookReplayQuerySchema = z.strictObject({ kind: z.literal('webhook.replay'), event_id: EventIdSchema });

export const DispatcherQuerySchema = z.discriminatedUnion('kind', [EventsListQuerySchema, WebhookReplayQuerySchema]);
export type DispatcherQuery = z.infer<typeof DispatcherQuerySchema>;

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  query_id: RequestIdSchema,
  account_id: AccountIdSchema,
  mode: ApiKeyModeSchema,
  query: DispatcherQuerySchema,
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.account_id;
