/**
 * `async.chunk.fetched` (key: search_id:provider): provider-fetcher -> dedupe. One chunk's normalized
 * records (none when the fetch failed) and where the provider's next chunk starts; for the
 * own index's store phase, the store query dedupe answers instead of records.
 */
import { z } from 'zod';
import { DateTimeSchema, NonNegativeIntSchema } from '../public/common.schema.js';
import { FiltersSchema } from '../public/filters.schema.js';
import { WATERFALL_LIMITS } from '../public/waterfall.schema.js';
import { NormalizedProviderRecordSchema } from '../records/normalized-provider-record.schema.js';
import { ASYNC_CHUNK_MAX, ChunkPositionSchema, ChunkRefShape, StoreKeySchema } from './async-chunk-requested.schema.js';
import {
  EpochMsSchema,
  FetchOutcomeSchema,
  MessageVersionSchema,
  OwnIndexScopeSchema,
  refineRecordsOfProvider,
} from './common.schema.js';

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    ...ChunkRefShape,
    outcome: FetchOutcomeSchema,
    latency_ms: NonNegativeIntSchema,
    fetched_at: DateTimeSchema,
    records: z.array(NormalizedProviderRecordSchema).max(ASYNC_CHUNK_MAX * 2),
    /** where the next chunk starts; null when the provider has no more (or for a store query: dedupe decides) */
    next: ChunkPositionSchema.nullable(),
    /** own_index store phase: one store page after `after`, within `scope` */
    index_query: z
      .strictObject({
        filters: FiltersSchema,
        scope: OwnIndexScopeSchema,
        want: z.number().int().min(1).max(ASYNC_CHUNK_MAX),
        after: StoreKeySchema.nullable(),
        as_of: EpochMsSchema,
        /** a `consensus` search's: only jobs that at least this many providers listed */
        min_sources: z
          .number()
          .int()
          .min(WATERFALL_LIMITS.minSourcesMin)
          .max(WATERFALL_LIMITS.minSourcesMax)
          .optional(),
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

/** One search's providers merge side by side on several dedupe partitions; one provider's chunks stay in order. */
export const keyOf = (value: Value): string => `${value.search_id}:${value.provider}`;
