/**
 * `orchestrator.query.requested` (key: account_id): gateway -> search-orchestrator. Commands
 * and reads of what the orchestrator owns (async searches, watches) that an HTTP request
 * waits for. The answer comes back on `query.responded` under the same `query_id`.
 *
 * Watches: create, list, delete and set_status (pause or resume).
 * `async.create` is answered once the search is stored (`queued`); collection then runs on
 * its own. Keyed by account so one account's creations and reads stay in order.
 */
import { z } from 'zod';
import { AsyncSearchCreateRequestSchema, AsyncSearchReadQuerySchema } from '../public/async-search.schema.js';
import { ApiKeyModeSchema } from '../public/headers.schema.js';
import { AccountIdSchema, CursorSchema, RequestIdSchema, SearchIdSchema, WatchIdSchema } from '../public/ids.schema.js';
import { PlanSchema, ProviderSlugSchema } from '../public/providers.schema.js';
import { WatchCreateRequestSchema, WatchStatusSchema } from '../public/watch.schema.js';
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
export const WatchSetStatusQuerySchema = z.strictObject({ kind: z.literal('watch.set_status'), watch_id: WatchIdSchema, status: WatchStatusSchema });

export const OrchestratorQuerySchema = z.discriminatedUnion('kind', [AsyncCreateQuerySchema, AsyncGetQuerySchema, WatchCreateQuerySchema, WatchListQuerySchema, WatchDeleteQuerySchema, WatchSetStatusQuerySchema]);
export type OrchestratorQuery = z.infer<typeof OrchestratorQuerySchema>;

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  query_id: RequestIdSchema,
  account_id: AccountIdSchema,
  plan: PlanSchema,
  mode: ApiKeyModeSchema,
  providers_enabled: z.array(ProviderSlugSchema),
  query: OrchestratorQuerySchema,
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.account_id;
