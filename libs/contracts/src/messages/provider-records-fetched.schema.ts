/**
 * `provider.records.fetched` (key: search_id and the providers it carries): provider-fetcher ->
 * dedupe, one per wave of a search: every partner's normalized records (or its failure) once the
 * last one answered; a wave not all in by half its budget in parts (what is in then, each later
 * answer as it comes). The own index's leg is a store query of its own (`own-index.query.requested`).
 * A failed or timed-out fetch carries no records; every record names its batch's provider.
 */
import { z } from 'zod';
import { DateTimeSchema, NonNegativeIntSchema } from '../public/common.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { NormalizedProviderRecordSchema } from '../records/normalized-provider-record.schema.js';
import { FetchOutcomeSchema, MessageVersionSchema, refineRecordsOfProvider } from './common.schema.js';
import { ChunkPositionSchema } from './async-chunk-requested.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';

/** One provider's part of a wave. */
export const FetchedBatchSchema = z
  .strictObject({
    provider: ProviderSlugSchema,
    outcome: FetchOutcomeSchema,
    latency_ms: NonNegativeIntSchema,
    fetched_at: DateTimeSchema,
    records: z.array(NormalizedProviderRecordSchema),
    /** partners: where the provider's next page starts (null: it has no more) */
    next: ChunkPositionSchema.nullable().optional(),
    /**
     * partners: how many postings the provider said match the whole query (its first page's
     * total), when it says: a dry run's estimate counts every page from it.
     */
    total: NonNegativeIntSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.outcome !== 'ok' && value.records.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['records'], message: 'a failed fetch carries no records' });
    }
    refineRecordsOfProvider(value, ctx);
  });
export type FetchedBatch = z.infer<typeof FetchedBatchSchema>;

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    search_id: SearchCorrelationIdSchema,
    /** one per provider of the wave (each provider once) */
    batches: z.array(FetchedBatchSchema).min(1),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    value.batches.forEach((batch, index) => {
      if (seen.has(batch.provider))
        ctx.addIssue({ code: 'custom', path: ['batches', index, 'provider'], message: 'provider reported twice' });
      seen.add(batch.provider);
    });
  });
export type Value = z.infer<typeof ValueSchema>;

/**
 * Keyed by the providers the message carries: the parts of a wave that was not all in by half its
 * budget merge side by side (a late answer never waits behind the merge of those that came before
 * it). Advisory locks on blocking keys keep concurrent merges of one opening to one job; a
 * search's waves follow each other anyway (the next is asked once the last is in).
 */
export const keyOf = (value: Value): string =>
  `${value.search_id}:${value.batches.map((batch) => batch.provider).join('+')}`;
