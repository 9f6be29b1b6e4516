/**
 * Typed errors. Every request-level failure the API answers is an `ApiError` (or one of its
 * subclasses, one per `error.type` of the spec's catalogue), carrying the envelope's fields under
 * their wire names (`code`, `type`, `param`, `request_id`, `credits_needed`, ...) plus what the
 * client knows about the exchange (`status`, `retryAfterSeconds`, `rateLimit`, `attempts`).
 * A request that never got an answer (network error, timeout) after its retries is an
 * `ApiConnectionError`. Branch on `code`, never on `message`.
 */
import type { ErrorBody, ErrorCode, ErrorType, Plan } from '@jobs/contracts';
import type { RateLimitInfo, ResponseHeaders } from './response-info.js';

export interface ApiErrorInit {
  status: number;
  body: ErrorBody;
  headers: ResponseHeaders;
  retryAfterSeconds: number | null;
  rateLimit: RateLimitInfo | null;
  idempotencyKey: string | null;
  attempts: number;
}

/** A request-level failure answered by the API (the error envelope of interface.md "Errors"). */
export class ApiError extends Error {
  /** HTTP status of the answer (429 for an account over its rate limit, 503 when the service is at capacity). */
  readonly status: number;
  readonly code: ErrorCode;
  readonly type: ErrorType;
  /** Equals the `X-Request-Id` response header; quote it to support. */
  readonly request_id: string;
  readonly doc_url: string;
  /** The offending field on `invalid_request` / `unknown_filter`, e.g. `filters.titel_or`. */
  readonly param: string | undefined;
  /** On `insufficient_credits`. */
  readonly credits_needed: number | undefined;
  /** On `plan_required`. */
  readonly required_plan: Plan | undefined;
  /** On `insufficient_credits` and `plan_required`. */
  readonly upgrade_url: string | undefined;
  /** The whole `error` object as answered. */
  readonly body: ErrorBody;
  readonly headers: ResponseHeaders;
  /** `Retry-After` in seconds, when the answer carried one. */
  readonly retryAfterSeconds: number | null;
  /** `RateLimit-*` headers, when the answer carried them. */
  readonly rateLimit: RateLimitInfo | null;
  /** The `Idempotency-Key` the request was sent with (every POST has one). */
  readonly idempotencyKey: string | null;
  /** How many times the request was sent, retries included. */
  readonly attempts: number;

  constructor(init: ApiErrorInit) {
    super(init.body.message);
    this.name = new.target.name;
    this.status = init.status;
    this.body = init.body;
    this.code = init.body.code;
    this.type = init.body.type;
    this.request_id = init.body.request_id;
    this.doc_url = init.body.doc_url;
    this.param = init.body.param;
    this.credits_needed = init.body.credits_needed;
    this.required_plan = init.body.required_plan;
    this.upgrade_url = init.body.upgrade_url;
    this.headers = init.headers;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.rateLimit = init.rateLimit;
    this.idempotencyKey = init.idempotencyKey;
    this.attempts = init.attempts;
  }
}

/** 400 `invalid_request` or `unknown_filter`: fix the request (see `param`). */
export class InvalidRequestError extends ApiError {}
/** 401 `unauthorized`: missing, malformed or revoked key. */
export class AuthenticationError extends ApiError {}
/** 402 `insufficient_credits`: top up, or lower `max_credits` or `limit` (see `credits_needed`). */
export class InsufficientCreditsError extends ApiError {}
/** 403 `plan_required`: the plan lacks the feature or a listed provider (see `required_plan`). */
export class PermissionDeniedError extends ApiError {}
/** 404 `not_found`: the id or domain does not exist. */
export class NotFoundError extends ApiError {}
/** 409 `idempotency_conflict`: the same `Idempotency-Key` with a different body. */
export class ConflictError extends ApiError {}
/** 429 (or 503 at capacity) `rate_limited`: still refused after the client's retries. */
export class RateLimitError extends ApiError {}
/** 500 `internal_error` (or another 5xx): still failing after the client's retries with the same key. */
export class InternalServerError extends ApiError {}

const CLASS_OF_TYPE: Record<ErrorType, new (init: ApiErrorInit) => ApiError> = {
  invalid_request_error: InvalidRequestError,
  authentication_error: AuthenticationError,
  billing_error: InsufficientCreditsError,
  permission_error: PermissionDeniedError,
  not_found_error: NotFoundError,
  conflict_error: ConflictError,
  rate_limit_error: RateLimitError,
  api_error: InternalServerError,
};

/** The subclass for the envelope's `type`. */
export function apiErrorOf(init: ApiErrorInit): ApiError {
  const Class = CLASS_OF_TYPE[init.body.type] ?? ApiError;
  return new Class(init);
}

/** The request never got an answer (connection refused or reset, DNS, timeout), after every retry. */
export class ApiConnectionError extends Error {
  readonly idempotencyKey: string | null;
  readonly attempts: number;

  constructor(message: string, init: { cause: unknown; idempotencyKey: string | null; attempts: number }) {
    super(message, { cause: init.cause });
    this.name = 'ApiConnectionError';
    this.idempotencyKey = init.idempotencyKey;
    this.attempts = init.attempts;
  }
}

/**
 * An async search that ended `failed` (every source failed): it has no jobs to page, which an
 * empty walk would not tell apart from a search that found none. `search` is its last read.
 */
export class AsyncSearchFailedError extends Error {
  constructor(readonly search: { id: string; status: string }) {
    super(`async search ${search.id} failed: no source answered`);
    this.name = 'AsyncSearchFailedError';
  }
}

/** A webhook delivery that must be refused (answer it with a 4xx). */
export type WebhookVerificationFailure =
  'missing_header' | 'malformed_header' | 'timestamp_out_of_tolerance' | 'signature_mismatch' | 'invalid_payload';

export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'WebhookVerificationError';
  }
}
