/**
 * `async.chunk.deduplicated` (key: search_id): dedupe -> search-orchestrator. The canonical jobs
 * one chunk resolved to (provider rank order; for a store page, the store's order) and where
 * the provider's next chunk starts.
 */
import { z } from 'zod';
import { NonNegativeIntSchema } from '../public/common.schema.js';
import { JobSchema } from '../public/job.schema.js';
import { ASYNC_CHUNK_MAX, ChunkPositionSchema, ChunkRefShape } from './async-chunk-requested.schema.js';
import { FetchOutcomeSchema, MessageVersionSchema } from './common.schema.js';

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    ...ChunkRefShape,
    outcome: FetchOutcomeSchema,
    latency_ms: NonNegativeIntSchema,
    records_in: NonNegativeIntSchema,
    /** records merged into a canonical job that already existed */
    duplicates_merged: NonNegativeIntSchema,
    jobs: z.array(JobSchema).max(ASYNC_CHUNK_MAX * 2),
    /** null: the provider has nothing more for this search */
    next: ChunkPositionSchema.nullable(),
  })
  .superRefine((value, ctx) => {
    if (value.duplicates_merged > value.records_in) {
      ctx.addIssue({ code: 'custom', path: ['duplicates_merged'], message: 'cannot merge more records than came in' });
    }
  });
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.search_id;
