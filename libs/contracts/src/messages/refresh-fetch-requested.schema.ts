/**
 * `refresh.fetch.requested` (key: provider): dedupe (the refresh planner) -> provider-fetcher.
 * One sweep of a refresh pass: read one provider's listing for one scope to its end, page by
 * page. Keyed by provider, so one provider's sweeps run one after the other (a polite, bounded
 * share of its concurrency next to live searches).
 *
 * - `catalog`: the provider's whole listing (the own crawler's part of the market).
 * - `companies`: the listing of a batch of companies (`filters.company_domain_or`, many domains
 *   per call): re-verifies the stored jobs this provider listed for them.
 * - `new_listings`: postings posted since `posted_since` (the provider's listing lag and the
 *   interval covered): new openings and re-listings anywhere in the market. Never complete for
 *   absences: a window is not a listing of every job.
 */
import { z } from 'zod';
import { FiltersSchema } from '../public/filters.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { EpochMsSchema, MessageVersionSchema } from './common.schema.js';
import { RefreshIdSchema } from './refresh-requested.schema.js';

/** What a sweep reads: filters, and a stable key naming the scope (e.g. `companies:3/10:0`). */
export const RefreshScopeSchema = z.strictObject({
  key: z.string().min(1).max(600),
  filters: FiltersSchema,
});
export type RefreshScope = z.infer<typeof RefreshScopeSchema>;

export const RefreshSweepKindSchema = z.enum(['catalog', 'companies', 'new_listings']);
export type RefreshSweepKind = z.infer<typeof RefreshSweepKindSchema>;

/** Which sweep a message is about: the fields a sweep's request and each of its parts share. */
export const RefreshSweepFields = {
  v: MessageVersionSchema,
  refresh_id: RefreshIdSchema,
  kind: RefreshSweepKindSchema,
  scope: RefreshScopeSchema,
  provider: ProviderSlugSchema,
};

export const ValueSchema = z
  .strictObject({
    ...RefreshSweepFields,
    /** new_listings only: postings posted at or after this moment */
    posted_since: EpochMsSchema.optional(),
    /** the sweep's budget, counted from when the fetcher takes it; a sweep cut short is incomplete */
    timeout_ms: z.number().int().min(1_000).max(600_000),
  })
  .superRefine((value, ctx) => {
    if ((value.kind === 'new_listings') !== (value.posted_since !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['posted_since'], message: 'posted_since is set exactly for new_listings sweeps' });
    }
  });
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.provider;
