/**
 * `own-index.query.requested` (key: search_id): search-orchestrator -> dedupe, the own index's
 * leg of a search wave: a query of the store of canonical jobs, which dedupe owns. No fetcher and
 * no crawler call: dedupe answers on `search.records.deduplicated` with up to `want` jobs matching
 * `filters` within `scope`, after `after` in store order (null: from the start).
 */
import { z } from 'zod';
import { AccountIdSchema } from '../public/ids.schema.js';
import { FiltersSchema } from '../public/filters.schema.js';
import { WATERFALL_LIMITS } from '../public/waterfall.schema.js';
import { MessageVersionSchema, OwnIndexScopeSchema } from './common.schema.js';
import { StoreKeySchema } from './async-chunk-requested.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  search_id: SearchCorrelationIdSchema,
  filters: FiltersSchema,
  want: z.number().int().min(1).max(10_000),
  scope: OwnIndexScopeSchema,
  after: StoreKeySchema.nullable().optional(),
  /**
   * `consensus`: only jobs that at least this many providers listed, so a page holds jobs the search
   * keeps instead of the newest single-source ones it would drop.
   */
  min_sources: z.number().int().min(WATERFALL_LIMITS.minSourcesMin).max(WATERFALL_LIMITS.minSourcesMax).optional(),
  /**
   * A dry run's estimate: also count every job of the store that matches (one set-based count, no
   * rows loaded), those with at least `min_sources` sources, and those `account_id` already paid for.
   */
  count: z.strictObject({ account_id: AccountIdSchema, min_sources: z.number().int().min(1).max(7) }).optional(),
});
export type Value = z.infer<typeof ValueSchema>;

/**
 * Keyed by search: searches spread over dedupe's partitions, and a search's own index leg runs
 * beside its partner wave (another topic) whatever their order.
 */
export const keyOf = (value: Value): string => value.search_id;
