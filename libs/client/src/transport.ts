/**
 * One request, sent until it succeeds or the retry policy says stop: headers (key, version,
 * `Idempotency-Key`), a timeout per attempt, the error envelope turned into a typed error, and
 * the answer's `ResponseInfo`. Everything with a side effect (fetch, sleep, randomness, the
 * clock, the key generator) is injected, so unit tests drive it without a network or real time.
 */
import { apiErrorOf, ApiConnectionError, type ApiError } from './errors.js';
import {
  responseInfo,
  retryAfterSeconds,
  rateLimitInfo,
  type ResponseHeaders,
  type ResponseInfo,
} from './response-info.js';
import { mayHaveRun, retryDecision, type RetryDecision, type RetryPolicy, type RetryReason } from './retry-policy.js';
import { CLIENT_VERSION } from './version.js';
import type { ErrorBody, ErrorCode, ErrorType } from '@jobs/contracts';

/** The part of an `AbortSignal` the client uses (a real `AbortSignal` fits). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignalLike;
}

/** The part of a Fetch API `Response` the client reads. */
export interface FetchResponseLike {
  readonly status: number;
  readonly headers: ResponseHeaders;
  text(): Promise<string>;
}

/** `globalThis.fetch` fits; tests inject their own. */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponseLike>;

/** Waits `ms`; rejects with the signal's reason when it aborts first. */
export type SleepLike = (ms: number, signal?: AbortSignalLike) => Promise<void>;

/** Told before each retry (for logs and metrics). */
export interface RetryEvent {
  method: string;
  path: string;
  /** The attempt that failed (1-based). */
  attempt: number;
  reason: RetryReason;
  delayMs: number;
  /** Status of the failed attempt; null after a network error. */
  status: number | null;
  /** The same key is sent again: the retry is never charged twice. */
  idempotencyKey: string | null;
  /** The typed error of the failed attempt, or the network error. */
  error: unknown;
}

export interface TransportConfig {
  baseUrl: string;
  apiKey: string | undefined;
  serviceVersion: string | null;
  fetch: FetchLike;
  sleep: SleepLike;
  random: () => number;
  now: () => number;
  newIdempotencyKey: () => string;
  retry: RetryPolicy;
  timeoutMs: number;
  headers: Record<string, string>;
  onRetry: ((event: RetryEvent) => void) | undefined;
}

/** Per-call options of every method. */
export interface RequestOptions {
  /** POST only: the key to send (and resend on retries); a UUID is generated when omitted. */
  idempotencyKey?: string;
  /** Aborts the request and any wait between retries. */
  signal?: AbortSignalLike;
  /** Timeout of each attempt, in ms (a timed-out attempt is retried like a network error). */
  timeoutMs?: number;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

export type QueryValue = string | number | boolean | undefined | null;

export interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** Below the base URL, e.g. `/jobs/search`. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** False for the keyless sandbox: no `Authorization` header is sent. */
  auth: boolean;
  /** A GET charged on every call: retried only after answers that say nothing was charged (`retryDecision`). */
  chargedEachCall?: boolean;
}

export interface TransportResult<T> {
  body: T;
  info: ResponseInfo;
}

/** `setTimeout` as a promise that an abort signal cuts short. */
export const defaultSleep: SleepLike = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

const FALLBACK_CODE: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  402: 'insufficient_credits',
  403: 'plan_required',
  404: 'not_found',
  409: 'idempotency_conflict',
  429: 'rate_limited',
  503: 'rate_limited',
};
const TYPE_OF_CODE: Record<ErrorCode, ErrorType> = {
  invalid_request: 'invalid_request_error',
  unknown_filter: 'invalid_request_error',
  unauthorized: 'authentication_error',
  insufficient_credits: 'billing_error',
  plan_required: 'permission_error',
  not_found: 'not_found_error',
  idempotency_conflict: 'conflict_error',
  rate_limited: 'rate_limit_error',
  internal_error: 'api_error',
};

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return typeof body['code'] === 'string' && typeof body['type'] === 'string' && typeof body['message'] === 'string';
}

/**
 * The `error` object of an answer; an answer that is not the envelope (a proxy's 502 page, say)
 * gets one made from its status, so callers always branch on `code`.
 */
export function errorBodyOf(status: number, headers: ResponseHeaders, text: string, baseUrl: string): ErrorBody {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (isErrorBody(parsed.error)) return parsed.error;
  } catch {
    // not JSON: made up below
  }
  const code = FALLBACK_CODE[status] ?? (status >= 500 ? 'internal_error' : 'invalid_request');
  return {
    type: TYPE_OF_CODE[code],
    code,
    message: `HTTP ${status} without the API's error envelope${text ? `: ${text.slice(0, 200)}` : ''}`,
    // the API's own documentation host, as its envelopes carry it
    doc_url: `${new URL(baseUrl).origin}/docs/errors#${code}`,
    request_id: headers.get('X-Request-Id') ?? 'req_unknown',
  };
}

function abortReason(signal: AbortSignalLike): unknown {
  return signal.reason ?? Object.assign(new Error('The request was aborted'), { name: 'AbortError' });
}

export class Transport {
  constructor(private readonly config: TransportConfig) {}

  /** The injected clock (pollers use it too). */
  now(): number {
    return this.config.now();
  }

  /** The injected sleep (pollers use it too). */
  sleep(ms: number, signal?: AbortSignalLike): Promise<void> {
    return this.config.sleep(ms, signal);
  }

  url(path: string, query: Record<string, QueryValue> = {}): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query))
      if (value !== undefined && value !== null) params.set(name, String(value));
    const search = params.toString();
    return `${this.config.baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  async request<T>(spec: RequestSpec, options: RequestOptions = {}): Promise<TransportResult<T>> {
    const config = this.config;
    const idempotencyKey = spec.method === 'POST' ? (options.idempotencyKey ?? config.newIdempotencyKey()) : null;
    const policy =
      options.maxRetries === undefined ? config.retry : { ...config.retry, maxRetries: options.maxRetries };
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `jobs-client-ts/${CLIENT_VERSION}`,
      ...config.headers,
      ...(config.serviceVersion ? { 'service-version': config.serviceVersion } : {}),
      ...(spec.auth && config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
      ...(spec.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(idempotencyKey !== null ? { 'idempotency-key': idempotencyKey } : {}),
      ...options.headers,
    };
    const url = this.url(spec.path, spec.query);
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const timeoutMs = options.timeoutMs ?? config.timeoutMs;
    // An earlier attempt may have done the work though its answer was lost (see `mayHaveRun`).
    let earlierMayHaveRun = false;
    // Every retry is reported, then waited for; the caller's abort ends the wait.
    const waitToRetry = (
      decision: Extract<RetryDecision, { retry: true }>,
      attempt: number,
      status: number | null,
      error: unknown,
    ): Promise<void> => {
      config.onRetry?.({
        method: spec.method,
        path: spec.path,
        attempt,
        reason: decision.reason,
        delayMs: decision.delayMs,
        status,
        idempotencyKey,
        error,
      });
      return config.sleep(decision.delayMs, options.signal);
    };

    for (let attempt = 1; ; attempt++) {
      if (options.signal?.aborted) throw abortReason(options.signal);
      let status: number;
      let responseHeaders: ResponseHeaders;
      let text: string;
      try {
        const signals = [AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal as AbortSignal] : [])];
        const response = await config.fetch(url, {
          method: spec.method,
          headers,
          ...(body !== undefined ? { body } : {}),
          signal: AbortSignal.any(signals),
        });
        status = response.status;
        responseHeaders = response.headers;
        text = await response.text();
      } catch (cause) {
        if (options.signal?.aborted) throw abortReason(options.signal);
        const decision = retryDecision({ kind: 'network' }, attempt, policy, config.random, spec.chargedEachCall);
        if (!decision.retry) {
          const what = cause instanceof Error ? cause.message : String(cause);
          throw new ApiConnectionError(`${spec.method} ${spec.path}: no answer after ${attempt} attempt(s): ${what}`, {
            cause,
            idempotencyKey,
            attempts: attempt,
          });
        }
        earlierMayHaveRun = true;
        await waitToRetry(decision, attempt, null, cause);
        continue;
      }

      if (status >= 200 && status < 300) {
        const info = responseInfo(status, responseHeaders, idempotencyKey, attempt);
        return { body: (text ? JSON.parse(text) : undefined) as T, info };
      }
      // A DELETE has no Idempotency-Key to replay its first answer: when an earlier attempt may have
      // deleted the resource, this 404 is that delete's result, not an error (the info says 404).
      if (spec.method === 'DELETE' && status === 404 && earlierMayHaveRun) {
        return { body: undefined as T, info: responseInfo(status, responseHeaders, idempotencyKey, attempt) };
      }

      const retryAfter = retryAfterSeconds(responseHeaders, config.now());
      const error: ApiError = apiErrorOf({
        status,
        body: errorBodyOf(status, responseHeaders, text, this.config.baseUrl),
        headers: responseHeaders,
        retryAfterSeconds: retryAfter,
        rateLimit: rateLimitInfo(responseHeaders),
        idempotencyKey,
        attempts: attempt,
      });
      const decision = retryDecision(
        { kind: 'response', status, retryAfterSeconds: retryAfter },
        attempt,
        policy,
        config.random,
        spec.chargedEachCall,
      );
      if (!decision.retry) throw error;
      if (mayHaveRun({ kind: 'response', status, retryAfterSeconds: retryAfter })) earlierMayHaveRun = true;
      await waitToRetry(decision, attempt, status, error);
    }
  }
}
