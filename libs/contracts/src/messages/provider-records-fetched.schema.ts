/**
 * `provider.records.fetched` (key: search_id): provider-fetcher -> dedupe.
 * A failed or timed-out fetch carries no records; every record names the fetched provider.
 */
import { z } from 'zod';
import { DateTimeSchema, NonNegativeIntSchema } from '../public/common.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { NormalizedProviderRecordSchema } from '../records/normalized-provider-record.schema.js';
import { FiltersSchema } from '../public/filters.schema.js';
import { FetchOutcomeSchema, MessageVersionSchema, OwnIndexScopeSchema, refineRecordsOfProvider } from './common.schema.js';
import { ChunkPositionSchema, StoreKeySchema } from './async-chunk-requested.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    search_id: SearchCorrelationIdSchema,
    provider: ProviderSlugSchema,
    outcome: FetchOutcomeSchema,
    latency_ms: NonNegativeIntSchema,
    fetched_at: DateTimeSchema,
    records: z.array(NormalizedProviderRecordSchema),
    /** partners: where the provider's next page starts (null: it has no more) */
    next: ChunkPositionSchema.nullable().optional(),
    /**
     * own_index only: dedupe answers from the store of canonical jobs with up to `want` jobs
     * matching `filters` within `scope`, after `after` in store order (null: from the start).
     */
    index_query: z
      .strictObject({
        filters: FiltersSchema,
        want: z.number().int().min(1).max(10_000),
        scope: OwnIndexScopeSchema,
        after: StoreKeySchema.nullable().optional(),
      })
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.outcome !== 'ok' && value.records.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['records'], message: 'a failed fetch carries no records' });
    }
    if (value.index_query && value.provider !== 'own_index') {
      ctx.addIssue({ code: 'custom', path: ['index_query'], message: 'only the own index answers from the store' });
    }
    refineRecordsOfProvider(value, ctx);
  });
export type Value = z.infer<typeof ValueSchema>;

/**
 * One search's provider batches merge side by side on several dedupe partitions instead of queueing
 * behind each other on one (the search waits for its slowest merge, not the sum of all seven).
 */
export const keyOf = (value: Value): string => `${value.search_id}:${value.provider}`;
