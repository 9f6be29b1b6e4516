/**
 * `refresh.fetch.requested` (key: scope_key): search-orchestrator (the refresh planner) ->
 * provider-fetcher. Read one provider's complete current listing for one scope (a watched
 * company, a watch's saved filters, the own index), up to `want` records.
 */
import { z } from 'zod';
import { FiltersSchema } from '../public/filters.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { EpochMsSchema, MessageVersionSchema } from './common.schema.js';
import { RefreshIdSchema } from './refresh-requested.schema.js';

/** What a refresh reads: filters, and a stable key naming the scope (e.g. `company:acme.com`). */
export const RefreshScopeSchema = z.strictObject({
  key: z.string().min(1).max(600),
  filters: FiltersSchema,
});
export type RefreshScope = z.infer<typeof RefreshScopeSchema>;

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  refresh_id: RefreshIdSchema,
  scope: RefreshScopeSchema,
  provider: ProviderSlugSchema,
  want: z.number().int().min(1).max(10_000),
  deadline_at: EpochMsSchema,
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.scope.key;
