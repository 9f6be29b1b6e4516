/**
 * `search.page.charged` (key: search_id): billing -> gateway.
 * Billing's outcome for one gathered page (`billing.page.charge.requested`): which of the page's
 * jobs are returned (all of them, or those before the `max_credits` cut, in page order), the
 * page's `next_cursor`, the credits; or the error (`insufficient_credits`); or `expired`: the
 * request reached billing after its `answer_by`, nothing was charged and the search may run
 * again (a retry under the same Idempotency-Key does). The gateway joins it with the page
 * (`search.page.gathered`) into the search's answer.
 */
import { z } from 'zod';
import { NonNegativeIntSchema } from '../public/common.schema.js';
import { CursorSchema, JobIdSchema, RequestIdSchema } from '../public/ids.schema.js';
import { SYNC_SEARCH_LIMITS } from '../public/job-search.schema.js';
import { MessageVersionSchema } from './common.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';
import { SearchFailureSchema } from './search-responded.schema.js';

const PageChargeSchema = z.strictObject({
  /** The page's jobs returned, in page order (the page less what the cap cut). */
  returned_job_ids: z.array(JobIdSchema).max(SYNC_SEARCH_LIMITS.max),
  next_cursor: CursorSchema.nullable(),
  jobs_already_paid: NonNegativeIntSchema,
});

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    search_id: SearchCorrelationIdSchema,
    request_id: RequestIdSchema,
    outcome: z.enum(['ok', 'error', 'expired']),
    charge: PageChargeSchema.optional(),
    error: SearchFailureSchema.optional(),
    credits_charged: NonNegativeIntSchema,
    credits_remaining: NonNegativeIntSchema,
  })
  .superRefine((value, ctx) => {
    if (value.outcome === 'ok' && (!value.charge || value.error)) {
      ctx.addIssue({ code: 'custom', path: ['charge'], message: 'an ok outcome carries charge and no error' });
    }
    if (value.outcome === 'error' && (!value.error || value.charge)) {
      ctx.addIssue({ code: 'custom', path: ['error'], message: 'an error outcome carries error and no charge' });
    }
    if (value.outcome === 'expired' && (value.error || value.charge || value.credits_charged !== 0)) {
      ctx.addIssue({
        code: 'custom',
        path: ['outcome'],
        message: 'an expired outcome charges nothing and carries neither',
      });
    }
  });
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.search_id;
