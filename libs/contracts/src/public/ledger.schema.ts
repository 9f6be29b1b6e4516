/**
 * Billing ledger: `GET /billing/ledger`.
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - `job_id` is null on entries not tied to a job: `GET /companies/{domain}` charges 1 credit per
 *   request and every charge must appear in the ledger, but there is no job to name.
 * - `reason: already_paid` always has `credits: 0`; `operation` is `"<METHOD> <path>"`, for
 *   example `POST /v1/jobs/search`.
 */
import { z } from 'zod';
import { DateTimeSchema, NonNegativeIntSchema } from './common.schema.js';
import {
  CursorSchema,
  EventIdSchema,
  JobIdSchema,
  LedgerEntryIdSchema,
  RequestIdSchema,
  SearchIdSchema,
} from './ids.schema.js';
import { pageOf } from './pagination.schema.js';

export const LedgerReasonSchema = z.enum(['charged', 'already_paid']);
export type LedgerReason = z.infer<typeof LedgerReasonSchema>;

/** `"<METHOD> <path>"` as the ledger and the billing messages name an operation. */
export const OperationSchema = z
  .string()
  .regex(/^(GET|POST|PUT|PATCH|DELETE) \/\S*$/, 'Expected "<METHOD> <path>", e.g. "POST /v1/jobs/search"');
export type Operation = z.infer<typeof OperationSchema>;

/**
 * What caused a ledger line: the request (`req_`), the async search that collected the job
 * (`srch_`, charged as collected) or the watch event that delivered it (`evt_`).
 */
export const LedgerRequestIdSchema = z.union([RequestIdSchema, SearchIdSchema, EventIdSchema]);

export const LedgerEntrySchema = z
  .strictObject({
    id: LedgerEntryIdSchema,
    job_id: JobIdSchema.nullable(),
    request_id: LedgerRequestIdSchema,
    operation: OperationSchema,
    credits: NonNegativeIntSchema,
    reason: LedgerReasonSchema,
    created_at: DateTimeSchema,
  })
  .refine((entry) => entry.reason !== 'already_paid' || entry.credits === 0, {
    message: 'an already_paid entry costs 0 credits',
    path: ['credits'],
  });
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

/** Newest first. */
export const LedgerListResponseSchema = pageOf(LedgerEntrySchema);
export type LedgerListResponse = z.infer<typeof LedgerListResponseSchema>;

/** Page size is server-set. */
export const LedgerListQuerySchema = z.strictObject({
  job_id: JobIdSchema.optional(),
  cursor: CursorSchema.optional(),
});
export type LedgerListQuery = z.infer<typeof LedgerListQuerySchema>;
