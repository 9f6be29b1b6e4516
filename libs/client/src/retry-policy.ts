/**
 * When to send a request again, and after how long (interface.md "Errors", retry guidance):
 *
 * - 429 `rate_limited`, and 503 (the service at capacity, the same envelope): wait `Retry-After`
 *   seconds, then retry. A `Retry-After` longer than `maxRetryAfterMs` is not waited for: the
 *   error goes to the caller at once. Without the header: back off as below.
 * - 500 `internal_error` (and 502 / 504 from a proxy in front of the service) and network errors
 *   (no answer: refused, reset, timed out): back off exponentially with jitter and retry. POSTs
 *   keep their `Idempotency-Key`, so a retry is never charged twice. A `Retry-After` on such an
 *   answer is honoured.
 * - Everything else (400, 401, 402, 403, 404, 409, ...) fails the same way until the request
 *   changes: never retried.
 * - A GET charged on every call (`GET /companies/{domain}`: no already-paid rule, no
 *   `Idempotency-Key` to replay its answer) is retried only after an answer that says nothing was
 *   charged: 429, 503, and the service's own 500 (billing makes no charge once the service has
 *   stopped waiting for it; a billing replica stopping between a charge and its answer is the one
 *   exception, docs/limitations.md). After no answer, a 502 or a 504 the first call may have been
 *   charged, so the error goes to the caller, who decides whether to pay again.
 * - A DELETE carries no `Idempotency-Key`, so a retry after an attempt that may have run
 *   (`mayHaveRun`) can find the resource already gone: its 404 means the delete worked
 *   (`Transport` returns it as success). A 404 with no such attempt before it stays an error.
 *
 * At most `maxRetries` retries in all (so `maxRetries + 1` attempts). Pure: no clock, no I/O.
 */

export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retries. */
  maxRetries: number;
  /** First back-off step; doubles each attempt. */
  baseDelayMs: number;
  /** Ceiling of one back-off step. */
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** What one attempt came to. */
export type AttemptOutcome =
  { kind: 'response'; status: number; retryAfterSeconds: number | null } | { kind: 'network' };

export type RetryReason = 'rate_limited' | 'unavailable' | 'server_error' | 'network_error';

export type RetryDecision = { retry: false } | { retry: true; delayMs: number; reason: RetryReason };

const NO = { retry: false } as const;

/** Statuses retried after `Retry-After` (or a back-off when it is missing). */
const WAIT_STATUSES = new Map<number, RetryReason>([
  [429, 'rate_limited'],
  [503, 'unavailable'],
]);
/** Statuses retried after a back-off (or their `Retry-After`). */
const BACKOFF_STATUSES = new Set([500, 502, 504]);

/**
 * The delay before retry number `retry` (1-based): "equal jitter", half of the exponential step
 * fixed and half random, so retries spread out but never come back at once.
 */
export function backoffDelayMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * Whether to retry after `attemptsMade` attempts (1-based) ended in `outcome`, and after how long.
 */
export function retryDecision(
  outcome: AttemptOutcome,
  attemptsMade: number,
  policy: RetryPolicy,
  random: () => number,
  chargedEachCall = false,
): RetryDecision {
  if (attemptsMade > policy.maxRetries) return NO;
  if (chargedEachCall && mayHaveCharged(outcome)) return NO;
  const retry = attemptsMade;
  if (outcome.kind === 'network')
    return { retry: true, delayMs: backoffDelayMs(retry, policy, random), reason: 'network_error' };

  const waitReason = WAIT_STATUSES.get(outcome.status);
  const isBackoff = BACKOFF_STATUSES.has(outcome.status);
  if (!waitReason && !isBackoff) return NO;
  const reason: RetryReason = waitReason ?? 'server_error';
  if (outcome.retryAfterSeconds !== null) {
    const delayMs = outcome.retryAfterSeconds * 1000;
    if (delayMs > policy.maxRetryAfterMs) return NO;
    return { retry: true, delayMs, reason };
  }
  return { retry: true, delayMs: backoffDelayMs(retry, policy, random), reason };
}

/**
 * Whether an attempt that ended so may have done its work with only the answer lost: no answer
 * (the connection may have failed, or the attempt timed out, after the service acted) or a 5xx
 * (a proxy's 502/504 can come after the service acted). A 4xx, 429 included, was refused unrun.
 */
export function mayHaveRun(outcome: AttemptOutcome): boolean {
  return outcome.kind === 'network' || outcome.status >= 500;
}

/**
 * Whether a call charged each time may have been charged though its answer says otherwise: no
 * answer, or a proxy's 502/504 (which can come after the service answered). The service's own
 * 500 comes with nothing charged, but for the rare exception the policy above names.
 */
export function mayHaveCharged(outcome: AttemptOutcome): boolean {
  return outcome.kind === 'network' || outcome.status === 502 || outcome.status === 504;
}
