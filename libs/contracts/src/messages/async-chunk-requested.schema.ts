/**
 * `async.chunk.requested` (key: search_id:provider): search-orchestrator -> provider-fetcher. One chunk
 * of an async search's collection from one provider: read the provider page by page from
 * `from` until `want` records are in (or it has no more), within `timeout_ms` of taking the chunk.
 *
 * The own index is read in two phases: its crawler page by page (`pages`), then its store of
 * canonical jobs by keyset (`store`, answered by dedupe). `chunk` numbers the provider's chunks
 * of the search and `attempt` the tries of one chunk, so a late or repeated answer is told apart.
 */
import { z } from 'zod';
import { DateTimeSchema } from '../public/common.schema.js';
import { FiltersSchema } from '../public/filters.schema.js';
import { WATERFALL_LIMITS } from '../public/waterfall.schema.js';
import { JobIdSchema, SearchIdSchema } from '../public/ids.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { EpochMsSchema, MessageVersionSchema, OwnIndexScopeSchema } from './common.schema.js';

/**
 * Where a provider's own paging resumes: its page cursor (token, page number or offset) and the page size it was read
 * with.
 */
export const ProviderPagePositionSchema = z.strictObject({
  cursor: z.union([z.string().min(1).max(4096), z.number().int().min(0)]),
  page_size: z.number().int().min(1).max(1000),
});
export type ProviderPagePosition = z.infer<typeof ProviderPagePositionSchema>;

/** The last canonical job a store page returned, in store order (first_seen_at desc, id desc). */
export const StoreKeySchema = z.strictObject({ first_seen_at: DateTimeSchema, id: JobIdSchema });
export type StoreKey = z.infer<typeof StoreKeySchema>;

/** Where the next chunk of a provider starts; `page: null` / `after: null` is the beginning. */
export const ChunkPositionSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('pages'), page: ProviderPagePositionSchema.nullable() }),
  z.strictObject({ kind: z.literal('store'), after: StoreKeySchema.nullable() }),
]);
export type ChunkPosition = z.infer<typeof ChunkPositionSchema>;

/** The most records (and jobs) one chunk carries: keeps every chunk message well under Kafka's 1 MB. */
export const ASYNC_CHUNK_MAX = 250;

export const ChunkRefShape = {
  search_id: SearchIdSchema,
  provider: ProviderSlugSchema,
  chunk: z.number().int().min(0),
  attempt: z.number().int().min(0).max(10),
};

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    ...ChunkRefShape,
    from: ChunkPositionSchema,
    filters: FiltersSchema,
    want: z.number().int().min(1).max(ASYNC_CHUNK_MAX),
    /** the moment `posted_within_days` counts back from, fixed for the whole search so paging stays stable */
    as_of: EpochMsSchema,
    /**
     * The provider call's budget, counted from when the fetcher takes the chunk, not from when it
     * was asked: nobody waits on one chunk, so a chunk that waited in Kafka (a fetcher restarting)
     * still gets its full try instead of timing out unasked.
     */
    timeout_ms: z.number().int().min(WATERFALL_LIMITS.timeoutMsMin).max(WATERFALL_LIMITS.timeoutMsMax),
    /** own_index only: the scope its store answers within */
    index_scope: OwnIndexScopeSchema.optional(),
    /**
     * own_index only, a `consensus` search's: its store pages hold only jobs that at least this many
     * providers listed, the ones the search keeps, instead of every matching job to be dropped
     */
    min_sources: z.number().int().min(WATERFALL_LIMITS.minSourcesMin).max(WATERFALL_LIMITS.minSourcesMax).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.provider !== 'own_index' && (value.index_scope || value.from.kind === 'store')) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'only the own index answers from the store' });
    }
    if (value.provider !== 'own_index' && value.min_sources !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['min_sources'], message: 'only the own index filters by sources' });
    }
    if (value.provider === 'own_index' && !value.index_scope) {
      ctx.addIssue({ code: 'custom', path: ['index_scope'], message: 'the own index needs its store scope' });
    }
  });
export type Value = z.infer<typeof ValueSchema>;

/** One search's providers are read side by side on several fetcher partitions; one provider's chunks stay in order. */
export const keyOf = (value: Value): string => `${value.search_id}:${value.provider}`;
