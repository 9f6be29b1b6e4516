/**
 * `dispatcher.query.requested` (key: account_id): gateway -> webhook-dispatcher. Reads and
 * commands of what the dispatcher owns (the event feed, deliveries, endpoint signing secrets) that
 * an HTTP request waits for: `events.list` (GET /events), `webhook.replay` (POST /webhooks/replay),
 * `webhook_secret.current` (an endpoint's secret, made on first ask) and `webhook_secret.rotate`.
 * The answer comes back on `query.responded` under the same `query_id`; a redelivered replay or
 * rotation request makes no second one (the query id is its idempotency mark; a rotation's
 * `rotation_id` or a replay's `replay_id`, when given, instead: a keyed retry of the HTTP request
 * is a new query of the same rotation or replay). A secret travels
 * sealed (`SecretBox` of @jobs/webhook-targets, bound to its account, mode and URL), never in clear.
 */
import { z } from 'zod';
import { ApiKeyModeSchema } from '../public/headers.schema.js';
import { AccountIdSchema, CursorSchema, EventIdSchema, RequestIdSchema } from '../public/ids.schema.js';
import { UrlSchema } from '../public/common.schema.js';
import { PAGE_LIMITS } from '../public/pagination.schema.js';
import { WEBHOOK_ROTATION_MAX_OVERLAP_SECONDS } from '../public/webhook-endpoint.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const EventsListQuerySchema = z.strictObject({
  kind: z.literal('events.list'),
  since: CursorSchema.optional(),
  limit: z.number().int().min(PAGE_LIMITS.events.min).max(PAGE_LIMITS.events.max),
});
export const WebhookReplayQuerySchema = z.strictObject({
  kind: z.literal('webhook.replay'),
  event_id: EventIdSchema,
  /** `rpl_…`: the same for every retry of one keyed request, so the event is sent again once. */
  replay_id: z
    .string()
    .regex(/^rpl_[A-Za-z0-9_-]{1,64}$/)
    .optional(),
});

export const WebhookSecretCurrentQuerySchema = z.strictObject({
  kind: z.literal('webhook_secret.current'),
  url: UrlSchema,
});
export const WebhookSecretRotateQuerySchema = z.strictObject({
  kind: z.literal('webhook_secret.rotate'),
  url: UrlSchema,
  previous_expires_in_seconds: z.number().int().min(0).max(WEBHOOK_ROTATION_MAX_OVERLAP_SECONDS),
  /** `rot_…`: the same for every retry of one keyed request, so the secret rotates once. */
  rotation_id: z
    .string()
    .regex(/^rot_[A-Za-z0-9_-]{1,64}$/)
    .optional(),
});

export const DispatcherQuerySchema = z.discriminatedUnion('kind', [
  EventsListQuerySchema,
  WebhookReplayQuerySchema,
  WebhookSecretCurrentQuerySchema,
  WebhookSecretRotateQuerySchema,
]);
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
