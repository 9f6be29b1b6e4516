/**
 * `search.records.deduplicated` (key: search_id): dedupe -> search-orchestrator.
 * `jobs` are the canonical jobs this provider batch touched, in the provider's rank order.
 */
import { z } from 'zod';
import { NonNegativeIntSchema } from '../public/common.schema.js';
import { JobSchema } from '../public/job.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { FetchOutcomeSchema, MessageVersionSchema } from './common.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';

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
    jobs: z.array(JobSchema),
  })
  .superRefine((value, ctx) => {
    if (value.duplicates_merged > value.records_in) {
      ctx.addIssue({ code: 'custom', path: ['duplicates_merged'], message: 'cannot merge more records than came in' });
    }
    if (value.jobs.length > value.records_in) {
      ctx.addIssue({ code: 'custom', path: ['jobs'], message: 'more jobs than records came in' });
    }
  });
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.search_id;
