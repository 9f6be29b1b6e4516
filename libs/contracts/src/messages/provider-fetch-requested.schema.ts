/** `provider.fetch.requested` (key: search_id): search-orchestrator -> provider-fetcher, one per provider. */
import { z } from 'zod';
import { FiltersSchema } from '../public/filters.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { EpochMsSchema, MessageVersionSchema, OwnIndexScopeSchema } from './common.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    search_id: SearchCorrelationIdSchema,
    provider: ProviderSlugSchema,
    filters: FiltersSchema,
    /** how many records the orchestrator wants from this provider */
    want: z.number().int().min(1).max(10_000),
    deadline_at: EpochMsSchema,
    /** own_index only: the own index also answers from its store, within this scope */
    index_scope: OwnIndexScopeSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.index_scope && value.provider !== 'own_index') {
      ctx.addIssue({ code: 'custom', path: ['index_scope'], message: 'only the own index answers from the store' });
    }
  });
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.search_id;
