/**
 * `search.records.deduplicated` (key: search_id): dedupe -> search-orchestrator.
 * `jobs` are the canonical jobs this provider batch touched, in the provider's rank order; for
 * the own index, followed by the `from_store` jobs its store answered that the crawler did not.
 */
import { z } from 'zod';
import { NonNegativeIntSchema } from '../public/common.schema.js';
import { JobSchema } from '../public/job.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { FetchOutcomeSchema, MessageVersionSchema } from './common.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';
import { ChunkPositionSchema } from './async-chunk-requested.schema.js';

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    search_id: SearchCorrelationIdSchema,
    provider: ProviderSlugSchema,
    outcome: FetchOutcomeSchema,
    latency_ms: NonNegativeIntSchema,
    records_in: NonNegativeIntSchema,
    /** records merged into a canonical job that already existed */
    duplicates_merged: NonNegativeIntSchema,
    /** own_index: jobs answered from the store of canonical jobs beyond this batch's records */
    from_store: NonNegativeIntSchema.default(0),
    jobs: z.array(JobSchema),
    /** where this provider's next read for the search starts (null: it has no more; absent: unknown) */
    next: ChunkPositionSchema.nullable().optional(),
  })
  .superRefine((value, ctx) => {
    if (value.duplicates_merged > value.records_in) {
      ctx.addIssue({ code: 'custom', path: ['duplicates_merged'], message: 'cannot merge more records than came in' });
    }
    if (value.from_store > 0 && value.provider !== 'own_index') {
      ctx.addIssue({ code: 'custom', path: ['from_store'], message: 'only the own index answers from the store' });
    }
    if (value.jobs.length > value.records_in + value.from_store) {
      ctx.addIssue({ code: 'custom', path: ['jobs'], message: 'more jobs than records came in' });
    }
  });
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.search_id;
