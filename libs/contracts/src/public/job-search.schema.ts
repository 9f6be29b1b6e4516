/**
 * `POST /jobs/search` (and the sandbox): request, response, metadata and dry-run estimate.
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - `filters` is optional on the sync search ("whether it is required: not shown") and
 *   defaults to `{}`; `waterfall` defaults to `{}` with its own defaults applied.
 * - `dry_run` defaults to false; `cursor` is a `cur_...` string; both at once is 400 naming
 *   `dry_run` (0005).
 * - `metadata.status` must be `partial` whenever `providers.failed` is not empty.
 * - `metadata.request_id` is a `req_...` id; `field_coverage` keys are free strings.
 */
import { z } from 'zod';
import { NonNegativeIntSchema, ProbabilitySchema } from './common.schema.js';
import { FiltersSchema } from './filters.schema.js';
import { CursorSchema, RequestIdSchema } from './ids.schema.js';
import { JobSchema } from './job.schema.js';
import { ProviderFailureCodeSchema, ProviderSlugSchema } from './providers.schema.js';
import { WaterfallSchema } from './waterfall.schema.js';

export const SYNC_SEARCH_LIMITS = { min: 1, max: 100, default: 25 } as const;

export const JobSearchRequestSchema = z
  .strictObject({
    filters: FiltersSchema.prefault({}),
    waterfall: WaterfallSchema.prefault({}),
    limit: z.number().int().min(SYNC_SEARCH_LIMITS.min).max(SYNC_SEARCH_LIMITS.max).default(SYNC_SEARCH_LIMITS.default),
    cursor: CursorSchema.optional(),
    dry_run: z.boolean().default(false),
  })
  .superRefine((request, ctx) => {
    // A dry run estimates a whole search, free; a cursor asks for a page of one already run.
    // Together they have no meaning that is both free and honest, so neither is guessed.
    if (request.dry_run && request.cursor !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['dry_run'],
        message: 'A dry run estimates a whole search: send it without `cursor`, as the first page was sent.',
      });
  });
/** The parsed request, defaults applied. */
export type JobSearchRequest = z.infer<typeof JobSearchRequestSchema>;
/** What a client may send. */
export type JobSearchRequestInput = z.input<typeof JobSearchRequestSchema>;

export const SearchStatusSchema = z.enum(['complete', 'partial']);
export type SearchStatus = z.infer<typeof SearchStatusSchema>;

export const ProviderFailureSchema = z.strictObject({
  provider: ProviderSlugSchema,
  code: ProviderFailureCodeSchema,
});
export type ProviderFailure = z.infer<typeof ProviderFailureSchema>;

export const SearchProvidersReportSchema = z.strictObject({
  tried: z.array(ProviderSlugSchema),
  /** returned at least one match */
  hit: z.array(ProviderSlugSchema),
  failed: z.array(ProviderFailureSchema),
  /** unique jobs each provider contributed first */
  contributions: z.partialRecord(ProviderSlugSchema, NonNegativeIntSchema),
});
export type SearchProvidersReport = z.infer<typeof SearchProvidersReportSchema>;

/**
 * Metadata fields known before billing; the draft the orchestrator gathers. `field_coverage` and
 * `providers.contributions` are not: they describe the jobs returned, which are known only once
 * billing's cap has cut the page (the gateway computes them).
 */
const metadataDraftShape = {
  request_id: RequestIdSchema,
  status: SearchStatusSchema,
  /** provider records merged into existing canonical jobs; free */
  duplicates_merged: NonNegativeIntSchema,
  /** without `contributions`, which count the jobs returned */
  providers: SearchProvidersReportSchema.omit({ contributions: true }),
  latency_ms: NonNegativeIntSchema,
};
const { latency_ms: latencyMs, ...beforeLatency } = metadataDraftShape;

function partialWhenAProviderFailed(
  metadata: { status: SearchStatus; providers: { failed: unknown[] } },
  ctx: z.RefinementCtx,
): void {
  if (metadata.providers.failed.length > 0 && metadata.status !== 'partial') {
    ctx.addIssue({ code: 'custom', path: ['status'], message: 'status must be partial when a provider failed' });
  }
}

export const SearchMetadataDraftSchema = z.strictObject(metadataDraftShape).superRefine(partialWhenAProviderFailed);
export type SearchMetadataDraft = z.infer<typeof SearchMetadataDraftSchema>;

export const SearchMetadataSchema = z
  .strictObject({
    ...beforeLatency,
    providers: SearchProvidersReportSchema,
    /** field name to fraction of returned jobs with a non-null value */
    field_coverage: z.record(z.string().min(1), ProbabilitySchema),
    latency_ms: latencyMs,
    credits_charged: NonNegativeIntSchema,
    /** returned jobs paid for earlier; free */
    jobs_already_paid: NonNegativeIntSchema,
    credits_remaining: NonNegativeIntSchema,
  })
  .superRefine(partialWhenAProviderFailed);
export type SearchMetadata = z.infer<typeof SearchMetadataSchema>;

export const JobSearchResponseSchema = z.strictObject({
  data: z.array(JobSchema).max(SYNC_SEARCH_LIMITS.max),
  next_cursor: CursorSchema.nullable(),
  metadata: SearchMetadataSchema,
});
export type JobSearchResponse = z.infer<typeof JobSearchResponseSchema>;

/** A page before billing: the jobs found, the cursor and metadata without the credit fields. */
export const JobSearchResponseDraftSchema = z.strictObject({
  data: z.array(JobSchema).max(SYNC_SEARCH_LIMITS.max),
  next_cursor: CursorSchema.nullable(),
  metadata: SearchMetadataDraftSchema,
});
export type JobSearchResponseDraft = z.infer<typeof JobSearchResponseDraftSchema>;

export const IntRangeSchema = z
  .strictObject({ min: NonNegativeIntSchema, max: NonNegativeIntSchema })
  .refine((range) => range.min <= range.max, { message: 'min must not exceed max', path: ['max'] });
export type IntRange = z.infer<typeof IntRangeSchema>;

export const DryRunEstimateSchema = z.strictObject({
  request_id: RequestIdSchema,
  estimate: z.strictObject({
    /** all unique matching jobs across every page, independent of `limit` */
    expected_unique_jobs_range: IntRangeSchema,
    providers_planned: z.array(ProviderSlugSchema),
    /** credits the same request without dry_run would charge for one page */
    credits_range: IntRangeSchema,
  }),
});
export type DryRunEstimate = z.infer<typeof DryRunEstimateSchema>;

/** 200 body of `POST /jobs/search`: a page of jobs, or the estimate when `dry_run` is true. */
export const JobSearchResultSchema = z.union([JobSearchResponseSchema, DryRunEstimateSchema]);
export type JobSearchResult = z.infer<typeof JobSearchResultSchema>;
