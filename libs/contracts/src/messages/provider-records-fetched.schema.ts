/**
 * `provider.records.fetched` (key: search_id and the providers it carries): provider-fetcher ->
 * dedupe, one per wave of a search: every partner's normalized records (or its failure) once the
 * last one answered; a wave not all in by half its budget in parts (what is in then, each later
 * answer as it comes). Or, straight from the orchestrator, the own index's leg (a store query).
 * A failed or timed-out fetch carries no records; every record names its batch's provider.
 */
import { z } from 'zod';
import { DateTimeSchema, NonNegativeIntSchema } from '../public/common.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { NormalizedProviderRecordSchema } from '../records/normalized-provider-record.schema.js';
import { FiltersSchema } from '../public/filters.schema.js';
import {
  FetchOutcomeSchema,
  MessageVersionSchema,
  OwnIndexScopeSchema,
  refineRecordsOfProvider,
} from './common.schema.js';
import { ChunkPositionSchema, StoreKeySchema } from './async-chunk-requested.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';
import { AccountIdSchema } from '../public/ids.schema.js';

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
    /**
     * own_index only (its one batch): dedupe answers from the store of canonical jobs with up
     * to `want` jobs matching `filters` within `scope`, after `after` in store order (null: from
     * the start).
     */
    index_query: z
      .strictObject({
        filters: FiltersSchema,
        want: z.number().int().min(1).max(10_000),
        scope: OwnIndexScopeSchema,
        after: StoreKeySchema.nullable().optional(),
        /**
         * A dry run's estimate: also count every job of the store that matches (one set-based
         * count, no rows loaded), those with at least `min_sources` sources, and those `account_id`
         * already paid for.
         */
        count: z.strictObject({ account_id: AccountIdSchema, min_sources: z.number().int().min(1).max(7) }).optional(),
      })
      .optional(),
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    value.batches.forEach((batch, index) => {
      if (seen.has(batch.provider))
        ctx.addIssue({ code: 'custom', path: ['batches', index, 'provider'], message: 'provider reported twice' });
      seen.add(batch.provider);
    });
    if (value.index_query && (value.batches.length !== 1 || value.batches[0]!.provider !== 'own_index')) {
      ctx.addIssue({ code: 'custom', path: ['index_query'], message: 'only the own index answers from the store' });
    }
  });
export type Value = z.infer<typeof ValueSchema>;

/**
 * Keyed by the providers the message carries: a search's own index leg and its partners' wave
 * merge side by side, and so do the parts of a wave that was not all in by half its budget (a
 * late answer never waits behind the merge of those that came before it). Advisory locks on
 * blocking keys keep concurrent merges of one opening to one job; a search's waves follow each
 * other anyway (the next is asked once the last is in).
 */
export const keyOf = (value: Value): string =>
  `${value.search_id}:${value.batches.map((batch) => batch.provider).join('+')}`;
