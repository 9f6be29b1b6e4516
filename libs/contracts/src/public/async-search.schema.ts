/**
 * Async search: `POST /searches` body, the Async search object, `GET /searches/{id}` query.
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - The create request is strict: an unknown top-level property is `400 invalid_request`
 *   (an unknown key inside `filters` is still `unknown_filter`).
 * - `webhook_url` is optional and may not be null on create.
 */
import { z } from 'zod';
import { DateTimeSchema, NonNegativeIntSchema, UrlSchema } from './common.schema.js';
import { FiltersSchema } from './filters.schema.js';
import { CursorSchema, SearchIdSchema } from './ids.schema.js';
import { SearchMetadataSchema } from './job-search.schema.js';
import { JobSchema } from './job.schema.js';
import { PAGE_LIMITS, queryLimit } from './pagination.schema.js';
import { WaterfallSchema } from './waterfall.schema.js';

export const ASYNC_SEARCH_LIMITS = { min: 1, max: 10_000, default: 1_000 } as const;

export const AsyncSearchCreateRequestSchema = z.strictObject({
  filters: FiltersSchema,
  waterfall: WaterfallSchema.prefault({}),
  limit: z
    .number()
    .int()
    .min(ASYNC_SEARCH_LIMITS.min)
    .max(ASYNC_SEARCH_LIMITS.max)
    .default(ASYNC_SEARCH_LIMITS.default),
  /** receives `search.completed` */
  webhook_url: UrlSchema.optional(),
});
export type AsyncSearchCreateRequest = z.infer<typeof AsyncSearchCreateRequestSchema>;
export type AsyncSearchCreateRequestInput = z.input<typeof AsyncSearchCreateRequestSchema>;

export const AsyncSearchStatusSchema = z.enum(['queued', 'running', 'completed', 'partial', 'failed', 'on_hold']);
export type AsyncSearchStatus = z.infer<typeof AsyncSearchStatusSchema>;

/** The statuses a finished async search can end in (those announced by `search.completed`). */
export const AsyncSearchFinalStatusSchema = AsyncSearchStatusSchema.extract(['completed', 'partial', 'failed']);
export type AsyncSearchFinalStatus = z.infer<typeof AsyncSearchFinalStatusSchema>;

export const AsyncSearchSchema = z.strictObject({
  id: SearchIdSchema,
  status: AsyncSearchStatusSchema,
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
  completed_at: DateTimeSchema.nullable(),
  webhook_url: UrlSchema.nullable(),
  /** unique jobs collected so far */
  jobs_found: NonNegativeIntSchema,
  /** a page of results once completed or partial; empty otherwise */
  data: z.array(JobSchema).max(PAGE_LIMITS.asyncSearchRead.max),
  next_cursor: CursorSchema.nullable(),
  /** null while not finished */
  metadata: SearchMetadataSchema.nullable(),
});
export type AsyncSearch = z.infer<typeof AsyncSearchSchema>;

export const AsyncSearchParamsSchema = z.strictObject({ id: SearchIdSchema });
export type AsyncSearchParams = z.infer<typeof AsyncSearchParamsSchema>;

export const AsyncSearchReadQuerySchema = z.strictObject({
  cursor: CursorSchema.optional(),
  limit: queryLimit(PAGE_LIMITS.asyncSearchRead.max, PAGE_LIMITS.asyncSearchRead.default),
});
export type AsyncSearchReadQuery = z.infer<typeof AsyncSearchReadQuerySchema>;
