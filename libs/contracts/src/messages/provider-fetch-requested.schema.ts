/**
 * `provider.fetch.requested` (key: search_id): search-orchestrator -> provider-fetcher, one per
 * partner provider of a wave (the own index answers from the store: `provider.records.fetched`
 * with an `index_query`, straight from the orchestrator).
 */
import { z } from 'zod';
import { FiltersSchema } from '../public/filters.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { EpochMsSchema, MessageVersionSchema } from './common.schema.js';
import { ProviderPagePositionSchema } from './async-chunk-requested.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  search_id: SearchCorrelationIdSchema,
  provider: ProviderSlugSchema,
  filters: FiltersSchema,
  /** how many records the orchestrator wants from this provider */
  want: z.number().int().min(1).max(10_000),
  deadline_at: EpochMsSchema,
  /** where the provider's paging resumes (a later page of the search); absent or null: its first page */
  from: ProviderPagePositionSchema.nullable().optional(),
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.search_id;
