/**
 * `orchestrator.query.requested` (key: account_id): gateway -> search-orchestrator. Commands
 * and reads of what the orchestrator owns (async searches, watches) that an HTTP request
 * waits for. The answer comes back on `query.responded` under the same `query_id`.
 *
 * Watches: create, list, delete and set_status (pause or resume). `webhook_urls.list`: the
 * `webhook_url`s the account's watches and async searches of the key's mode deliver to (the
 * gateway joins them with the endpoints' signing secrets for `GET /v1/webhook_endpoints`).
 * `async.create` is answered once the search is stored (`queued`); collection then runs on
 * its own. Keyed by account so one account's creations and reads stay in order.
 */
import { z } from 'zod';
import { AsyncSearchCreateRequestSchema, AsyncSearchReadQuerySchema } from '../public/async-search.schema.js';
import { ApiKeyModeSchema } from '../public/headers.schema.js';
import { AccountIdSchema, CursorSchema, RequestIdSchema, SearchIdSchema, WatchIdSchema } from '../public/ids.schema.js';
import { PlanSchema, ProviderSlugSchema } from '../public/providers.schema.js';
import { WatchCreateRequestSchema, WatchStatusSchema } from '../public/watch.schema.js';
import { DateTimeSchema, UrlSchema } from '../public/common.schema.js';
import { WEBHOOK_ENDPOINTS_PAGE_SIZE, WebhookEndpointUsersSchema } from '../public/webhook-endpoint.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const AsyncCreateQuerySchema = z.strictObject({
  kind: z.literal('async.create'),
  /** minted by the gateway: a retry with the same Idempotency-Key names the same search */
  search_id: SearchIdSchema,
  request: AsyncSearchCreateRequestSchema,
});
export const AsyncGetQuerySchema = z.strictObject({
  kind: z.literal('async.get'),
  search_id: SearchIdSchema,
  read: AsyncSearchReadQuerySchema,
});
export const WatchCreateQuerySchema = z.strictObject({
  kind: z.literal('watch.create'),
  /** minted by the gateway, like search ids */
  watch_id: WatchIdSchema,
  request: WatchCreateRequestSchema,
});
export const WatchListQuerySchema = z.strictObject({ kind: z.literal('watch.list'), cursor: CursorSchema.optional() });
export const WatchDeleteQuerySchema = z.strictObject({ kind: z.literal('watch.delete'), watch_id: WatchIdSchema });
/**
 * Pauses (`paused`) or resumes (`active`) one of the account's watches; setting the status it
 * already has changes nothing. Answered with the watch as it is then.
 */
export const WatchSetStatusQuerySchema = z.strictObject({
  kind: z.literal('watch.set_status'),
  watch_id: WatchIdSchema,
  status: WatchStatusSchema,
});

/**
 * The URLs in the order of their SHA-256 (hex), after `after` (null: from the start), at most
 * `limit`; `more` in the answer says whether others follow. A URL may be 2048 characters, too
 * long for a cursor: its hash is the keyset position.
 */
export const WebhookUrlsListQuerySchema = z.strictObject({
  kind: z.literal('webhook_urls.list'),
  after: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  limit: z.number().int().min(1).max(WEBHOOK_ENDPOINTS_PAGE_SIZE),
});

export const OrchestratorQuerySchema = z.discriminatedUnion('kind', [
  AsyncCreateQuerySchema,
  AsyncGetQuerySchema,
  WatchCreateQuerySchema,
  WatchListQuerySchema,
  WatchDeleteQuerySchema,
  WatchSetStatusQuerySchema,
  WebhookUrlsListQuerySchema,
]);
export type OrchestratorQuery = z.infer<typeof OrchestratorQuerySchema>;

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  query_id: RequestIdSchema,
  account_id: AccountIdSchema,
  plan: PlanSchema,
  mode: ApiKeyModeSchema,
  providers_enabled: z.array(ProviderSlugSchema),
  query: OrchestratorQuerySchema,
  /**
   * When the gateway stops waiting (it answers `internal_error` and its caller retries): a create
   * taken after it makes nothing. Absent from an earlier version's message: no bound.
   */
  answer_by: DateTimeSchema.optional(),
});
export type Value = z.infer<typeof ValueSchema>;

/** One URL of a `webhook_urls.list` answer and what uses it. */
export const WebhookUrlUsageSchema = z.strictObject({ url: UrlSchema, used_by: WebhookEndpointUsersSchema });
export type WebhookUrlUsage = z.infer<typeof WebhookUrlUsageSchema>;

export const keyOf = (value: Value): string => value.account_id;
