/**
 * `provider.fetch.requested` (key: search_id): search-orchestrator -> provider-fetcher, one per
 * wave of a search: every partner provider the wave asks, called side by side by one fetcher
 * (the own index answers from the store: `own-index.query.requested`, straight from the
 * orchestrator to dedupe).
 */
import { z } from 'zod';
import { FiltersSchema } from '../public/filters.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { EpochMsSchema, MessageVersionSchema } from './common.schema.js';
import { ProviderPagePositionSchema } from './async-chunk-requested.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';

export const ProviderAskSchema = z.strictObject({
  provider: ProviderSlugSchema,
  /** where the provider's paging resumes (a later page of the search); absent or null: its first page */
  from: ProviderPagePositionSchema.nullable().optional(),
});

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    search_id: SearchCorrelationIdSchema,
    /** the wave's partner providers, each asked once */
    providers: z.array(ProviderAskSchema).min(1),
    filters: FiltersSchema,
    /** how many records the orchestrator wants from each provider */
    want: z.number().int().min(1).max(10_000),
    /**
     * A dry run: only each provider's reported total is wanted. The answer carries no records, so
     * an estimate leaves the store as it found it (and the next estimate counts the same).
     */
    count_only: z.boolean().optional(),
    deadline_at: EpochMsSchema,
  })
  .superRefine((value, ctx) => {
    const seen = new Set<string>();
    value.providers.forEach((ask, index) => {
      if (ask.provider === 'own_index')
        ctx.addIssue({
          code: 'custom',
          path: ['providers', index, 'provider'],
          message: 'the own index answers from the store, not through the fetcher',
        });
      if (seen.has(ask.provider))
        ctx.addIssue({ code: 'custom', path: ['providers', index, 'provider'], message: 'provider asked twice' });
      seen.add(ask.provider);
    });
  });
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.search_id;
