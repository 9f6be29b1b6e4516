/**
 * `search.responded` (key: search_id): search-orchestrator -> gateway, for the answers billing
 * never sees (a dry run's estimate, a failure). A charged page comes as two messages instead
 * (`search.page.gathered`, `search.page.charged`), which the gateway joins into this shape.
 *
 * Spec choice: besides `response` (a page of jobs) an ok outcome may carry `estimate` instead,
 * the answer to a `dry_run` request; exactly one of the two is set when `outcome` is `ok`, and
 * `error` is set exactly when `outcome` is `error`.
 */
import { z } from 'zod';
import { NonNegativeIntSchema } from '../public/common.schema.js';
import { ErrorCodeSchema } from '../public/errors.schema.js';
import { RequestIdSchema } from '../public/ids.schema.js';
import { DryRunEstimateSchema, JobSearchResponseSchema } from '../public/job-search.schema.js';
import { PlanSchema } from '../public/providers.schema.js';
import { MessageVersionSchema } from './common.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';

export const SearchFailureSchema = z.strictObject({
  code: ErrorCodeSchema,
  message: z.string().min(1),
  credits_needed: z.number().int().min(1).optional(),
  required_plan: PlanSchema.optional(),
  param: z.string().min(1).optional(),
});
export type SearchFailure = z.infer<typeof SearchFailureSchema>;

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    search_id: SearchCorrelationIdSchema,
    request_id: RequestIdSchema,
    outcome: z.enum(['ok', 'error']),
    response: JobSearchResponseSchema.optional(),
    estimate: DryRunEstimateSchema.optional(),
    error: SearchFailureSchema.optional(),
    credits_charged: NonNegativeIntSchema,
    /** null when nothing was looked up (e.g. the search failed before billing) */
    credits_remaining: NonNegativeIntSchema.nullable(),
  })
  .superRefine((value, ctx) => {
    const answers = (value.response ? 1 : 0) + (value.estimate ? 1 : 0);
    if (value.outcome === 'ok' && (answers !== 1 || value.error)) {
      ctx.addIssue({
        code: 'custom',
        path: ['response'],
        message: 'an ok outcome carries exactly one of response or estimate, and no error',
      });
    }
    if (value.outcome === 'error' && (!value.error || answers !== 0)) {
      ctx.addIssue({ code: 'custom', path: ['error'], message: 'an error outcome carries error and no response' });
    }
  });
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.search_id;
