/**
 * The error envelope and the error catalogue (code -> HTTP status, type, retry guidance).
 *
 * The envelope schema enforces the presence rules of the spec: `credits_needed` on
 * `insufficient_credits`, `required_plan` on `plan_required`, `upgrade_url` on both, and
 * `param` only on `invalid_request` / `unknown_filter` (where it is optional: a body that is not
 * JSON has no offending field).
 */
import { z } from 'zod';
import { UrlSchema } from './common.schema.js';
import { RequestIdSchema } from './ids.schema.js';
import { PlanSchema } from './providers.schema.js';

export const ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'billing_error',
  'permission_error',
  'not_found_error',
  'conflict_error',
  'rate_limit_error',
  'api_error',
] as const;
export const ErrorTypeSchema = z.enum(ERROR_TYPES);
export type ErrorType = z.infer<typeof ErrorTypeSchema>;

export const ERROR_CODES = [
  'invalid_request',
  'unknown_filter',
  'unauthorized',
  'insufficient_credits',
  'plan_required',
  'not_found',
  'idempotency_conflict',
  'rate_limited',
  'internal_error',
] as const;
export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export interface ErrorCatalogEntry {
  readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 429 | 500;
  readonly type: ErrorType;
  readonly retry: string;
}

export const ERROR_CATALOG = {
  invalid_request: { status: 400, type: 'invalid_request_error', retry: 'after fix' },
  unknown_filter: { status: 400, type: 'invalid_request_error', retry: 'after fix' },
  unauthorized: { status: 401, type: 'authentication_error', retry: 'after fix' },
  insufficient_credits: {
    status: 402,
    type: 'billing_error',
    retry: 'after top-up, or lower max_credits or limit',
  },
  plan_required: { status: 403, type: 'permission_error', retry: 'no' },
  not_found: { status: 404, type: 'not_found_error', retry: 'no' },
  idempotency_conflict: { status: 409, type: 'conflict_error', retry: 'after fix (new key)' },
  rate_limited: { status: 429, type: 'rate_limit_error', retry: 'after Retry-After' },
  internal_error: { status: 500, type: 'api_error', retry: 'yes, same Idempotency-Key' },
} as const satisfies Record<ErrorCode, ErrorCatalogEntry>;

/**
 * Where each error code is explained: the section of the errors page of the documentation the
 * gateway serves on its own host (`/docs/errors`), whose anchor is the code itself.
 */
export const ERROR_DOCS_PATH = '/docs/errors';

/** `doc_url` of an error: `<public base URL>/docs/errors#<code>` (a trailing slash of the base is dropped). */
export function errorDocUrl(publicBaseUrl: string, code: ErrorCode): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}${ERROR_DOCS_PATH}#${code}`;
}

const PARAM_CODES: readonly ErrorCode[] = ['invalid_request', 'unknown_filter'];
const UPGRADE_CODES: readonly ErrorCode[] = ['insufficient_credits', 'plan_required'];

export const ErrorBodySchema = z
  .strictObject({
    type: ErrorTypeSchema,
    code: ErrorCodeSchema,
    /** human-readable, may change; never parsed */
    message: z.string().min(1),
    /**
     * `<public base URL>/docs/errors#<code>`: the code's own section of the errors page. The
     * pattern is documentation for the OpenAPI reader (with a regex zod would drop `format: uri`);
     * the check that the anchor is this error's own code is in the refinement below.
     */
    doc_url: UrlSchema.meta({
      description: 'The section of this error code on the errors page: `<host>/docs/errors#<code>`.',
      pattern: '/docs/errors#[a-z_]+$',
    }),
    /** equals the X-Request-Id header */
    request_id: RequestIdSchema,
    param: z.string().min(1).optional(),
    credits_needed: z.number().int().min(1).optional(),
    required_plan: PlanSchema.optional(),
    upgrade_url: UrlSchema.optional(),
  })
  .superRefine((error, ctx) => {
    const expectedType = ERROR_CATALOG[error.code].type;
    if (error.type !== expectedType) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: `code ${error.code} has type ${expectedType}` });
    }
    if (!error.doc_url.endsWith(`${ERROR_DOCS_PATH}#${error.code}`)) {
      ctx.addIssue({
        code: 'custom',
        path: ['doc_url'],
        message: `doc_url of ${error.code} points at ${ERROR_DOCS_PATH}#${error.code}`,
      });
    }
    if (error.param !== undefined && !PARAM_CODES.includes(error.code)) {
      ctx.addIssue({
        code: 'custom',
        path: ['param'],
        message: 'param is only set on invalid_request and unknown_filter',
      });
    }
    if ((error.code === 'insufficient_credits') !== (error.credits_needed !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['credits_needed'],
        message: 'credits_needed is set exactly on insufficient_credits',
      });
    }
    if ((error.code === 'plan_required') !== (error.required_plan !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['required_plan'],
        message: 'required_plan is set exactly on plan_required',
      });
    }
    if (UPGRADE_CODES.includes(error.code) !== (error.upgrade_url !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['upgrade_url'],
        message: 'upgrade_url is set exactly on insufficient_credits and plan_required',
      });
    }
  });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const ErrorEnvelopeSchema = z.strictObject({ error: ErrorBodySchema });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;
