/**
 * `search.records.deduplicated` (key: search_id): dedupe -> search-orchestrator, one per
 * `provider.records.fetched` (a wave of partners) and one per `own-index.query.requested` (the
 * own index's leg). `jobs` are the canonical jobs the wave touched, each once; each batch lists
 * its own as `job_ids`, in the provider's rank order (the own index's are the `from_store` jobs
 * its store answered).
 */
import { z } from 'zod';
import { NonNegativeIntSchema } from '../public/common.schema.js';
import { JobSchema } from '../public/job.schema.js';
import { JobIdSchema } from '../public/ids.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { FetchOutcomeSchema, MessageVersionSchema } from './common.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';
import { ChunkPositionSchema } from './async-chunk-requested.schema.js';

/**
 * Of the stored jobs one provider saw (within the plan's scope): those matching the filters
 * (`matching`), and those matching the part partners apply themselves (`applied`), the part
 * its reported total counts.
 */
export const ProviderStoreCountSchema = z.strictObject({
  provider: ProviderSlugSchema,
  matching: NonNegativeIntSchema,
  applied: NonNegativeIntSchema,
});

/**
 * The store's count for a dry run: every stored job matching the filters within the plan's scope
 * (`matching`), those of them seen by at least `min_sources` providers (`corroborated`), those
 * the account already paid for (`paid`), those matching the part of the filters partners apply
 * themselves (`applied`), and per partner the jobs it saw (`by_provider`).
 */
export const StoreCountSchema = z
  .strictObject({
    matching: NonNegativeIntSchema,
    corroborated: NonNegativeIntSchema,
    paid: NonNegativeIntSchema,
    applied: NonNegativeIntSchema.optional(),
    by_provider: z.array(ProviderStoreCountSchema).optional(),
  })
  .refine((count) => count.corroborated <= count.matching && count.paid <= count.matching, {
    message: 'a part cannot exceed the count',
  });
export type StoreCount = z.infer<typeof StoreCountSchema>;

export const DeduplicatedBatchSchema = z
  .strictObject({
    provider: ProviderSlugSchema,
    outcome: FetchOutcomeSchema,
    latency_ms: NonNegativeIntSchema,
    records_in: NonNegativeIntSchema,
    /** records merged into a canonical job that already existed */
    duplicates_merged: NonNegativeIntSchema,
    /** own_index: jobs answered from the store of canonical jobs beyond this batch's records */
    from_store: NonNegativeIntSchema.default(0),
    /** the batch's canonical jobs, in its rank order (ids of `jobs`) */
    job_ids: z.array(JobIdSchema),
    /** where this provider's next read for the search starts (null: it has no more; absent: unknown) */
    next: ChunkPositionSchema.nullable().optional(),
    /** partners: the provider's reported total of matching postings (`provider.records.fetched`), when it said */
    total: NonNegativeIntSchema.optional(),
    /** own_index, when the leg asked for a count (a dry run): the store's matching jobs */
    store_count: StoreCountSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.duplicates_merged > value.records_in) {
      ctx.addIssue({ code: 'custom', path: ['duplicates_merged'], message: 'cannot merge more records than came in' });
    }
    if (value.store_count && value.provider !== 'own_index') {
      ctx.addIssue({ code: 'custom', path: ['store_count'], message: 'only the own index counts the store' });
    }
    if (value.from_store > 0 && value.provider !== 'own_index') {
      ctx.addIssue({ code: 'custom', path: ['from_store'], message: 'only the own index answers from the store' });
    }
    if (value.job_ids.length > value.records_in + value.from_store) {
      ctx.addIssue({ code: 'custom', path: ['job_ids'], message: 'more jobs than records came in' });
    }
  });
export type DeduplicatedBatch = z.infer<typeof DeduplicatedBatchSchema>;

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    search_id: SearchCorrelationIdSchema,
    /** every canonical job a batch lists, once */
    jobs: z.array(JobSchema),
    batches: z.array(DeduplicatedBatchSchema).min(1),
  })
  .superRefine((value, ctx) => {
    const ids = new Set(value.jobs.map((job) => job.id));
    if (ids.size !== value.jobs.length) ctx.addIssue({ code: 'custom', path: ['jobs'], message: 'a job listed twice' });
    const providers = new Set<string>();
    value.batches.forEach((batch, index) => {
      if (providers.has(batch.provider))
        ctx.addIssue({ code: 'custom', path: ['batches', index, 'provider'], message: 'provider reported twice' });
      providers.add(batch.provider);
      batch.job_ids.forEach((id, at) => {
        if (!ids.has(id))
          ctx.addIssue({ code: 'custom', path: ['batches', index, 'job_ids', at], message: 'job not in jobs' });
      });
    });
  });
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.search_id;
