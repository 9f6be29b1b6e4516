/**
 * What an answer's headers say, beside its body: request id, version, credits (billable answers:
 * `X-Credits-Charged`, `X-Credits-Remaining`), rate limit (`RateLimit-Limit`, `-Remaining`,
 * `-Reset`), `Retry-After`, and whether an `Idempotency-Key` retry was replayed
 * (`Idempotent-Replayed: true`).
 *
 * The types here are structural on purpose: the published declarations name no DOM or Node type,
 * so a consumer compiles them with any `lib` and without `@types/node`.
 */

/** The part of the Fetch API's `Headers` the client reads. */
export interface ResponseHeaders {
  get(name: string): string | null;
}

export interface CreditInfo {
  /** `X-Credits-Charged`: credits this answer cost (0 for a replay's second read, a test key or the sandbox). */
  charged: number;
  /** `X-Credits-Remaining`: the account's balance after it. */
  remaining: number;
}

export interface RateLimitInfo {
  /** `RateLimit-Limit`: requests allowed in the window. */
  limit: number;
  /** `RateLimit-Remaining`: requests left in the window. */
  remaining: number;
  /** `RateLimit-Reset`: seconds until the window ends (not a timestamp). */
  resetSeconds: number;
}

/** About one successful answer (the last attempt's). */
export interface ResponseInfo {
  status: number;
  /** `X-Request-Id` (the first request's on a replay). */
  requestId: string | null;
  /** The `Service-Version` the answer was made with. */
  serviceVersion: string | null;
  /**
   * `Idempotent-Replayed: true`: the stored answer of an earlier request with the same key; nothing was charged again.
   */
  replayed: boolean;
  /** The `Idempotency-Key` sent (every POST has one; null on GET and DELETE). */
  idempotencyKey: string | null;
  /** Billing headers, on billable answers (search, job, company profile); null elsewhere. */
  credits: CreditInfo | null;
  /**
   * Null when the answer had no `RateLimit-*` headers (the service lets requests through uncounted while its Redis is
   * away).
   */
  rateLimit: RateLimitInfo | null;
  /** How many times the request was sent, retries included. */
  attempts: number;
  headers: ResponseHeaders;
}

/** A billable answer's info: its credit headers are always there. */
export interface BilledResponseInfo extends ResponseInfo {
  credits: CreditInfo;
}

/** A response body with its `ResponseInfo` as the non-enumerable `$response` (JSON and equality see the body only). */
export type WithResponse<T, R extends ResponseInfo = ResponseInfo> = T & { readonly $response: R };
/** A billable answer's body with its credit headers in `$response.credits`. */
export type Billed<T> = WithResponse<T, BilledResponseInfo>;

function intHeader(headers: ResponseHeaders, name: string): number | null {
  const value = headers.get(name);
  if (value === null || !/^\s*\d+\s*$/.test(value)) return null;
  return Number(value);
}

export function creditInfo(headers: ResponseHeaders): CreditInfo | null {
  const charged = intHeader(headers, 'X-Credits-Charged');
  const remaining = intHeader(headers, 'X-Credits-Remaining');
  return charged === null || remaining === null ? null : { charged, remaining };
}

export function rateLimitInfo(headers: ResponseHeaders): RateLimitInfo | null {
  const limit = intHeader(headers, 'RateLimit-Limit');
  const remaining = intHeader(headers, 'RateLimit-Remaining');
  const resetSeconds = intHeader(headers, 'RateLimit-Reset');
  return limit === null || remaining === null || resetSeconds === null ? null : { limit, remaining, resetSeconds };
}

/**
 * `Retry-After` in seconds: the spec sends an integer number of seconds; an HTTP date (as a proxy
 * may send) is read too. Null when absent or unreadable.
 */
export function retryAfterSeconds(headers: ResponseHeaders, nowMs: number): number | null {
  const value = headers.get('Retry-After')?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

export function responseInfo(
  status: number,
  headers: ResponseHeaders,
  idempotencyKey: string | null,
  attempts: number,
): ResponseInfo {
  return {
    status,
    requestId: headers.get('X-Request-Id'),
    serviceVersion: headers.get('Service-Version'),
    replayed: headers.get('Idempotent-Replayed') === 'true',
    idempotencyKey,
    credits: creditInfo(headers),
    rateLimit: rateLimitInfo(headers),
    attempts,
    headers,
  };
}

/** Attaches `info` to `body` as the non-enumerable, read-only `$response`. */
export function withResponse<T extends object, R extends ResponseInfo>(body: T, info: R): WithResponse<T, R> {
  Object.defineProperty(body, '$response', { value: info, enumerable: false, writable: false, configurable: false });
  return body as WithResponse<T, R>;
}
