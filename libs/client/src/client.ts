/**
 * `JobsClient`: one typed method per public endpoint of interface.md, grouped by resource, with
 * async iterators over every paged endpoint. Sandbox, test and live differ by key only: the same
 * client without a key calls the keyless sandbox; with a `svc_test_` key every endpoint answers
 * sandbox data, never charged; with a `svc_live_` key the real thing.
 */
import type { Account, ProviderListResponse } from '@jobs/contracts';
import { SERVICE_VERSION } from '@jobs/contracts';
import {
  CompaniesResource,
  EventsResource,
  LedgerResource,
  WatchesResource,
  WebhookEndpointsResource,
  WebhooksResource,
} from './account-resources.js';
import { ApiError } from './errors.js';
import { withResponse, type WithResponse } from './response-info.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import { JobsResource, SandboxResource, SearchesResource } from './search-resources.js';
import {
  defaultSleep,
  Transport,
  type FetchLike,
  type RequestOptions,
  type RetryEvent,
  type SleepLike,
} from './transport.js';

/** The API version these types describe; sent as `Service-Version` unless told otherwise. */
export const API_VERSION: string = SERVICE_VERSION;

export interface JobsClientOptions {
  /** `{base_url}`, e.g. `http://127.0.0.1:8080/v1`; `/v1` is added when the path names no version. */
  baseUrl: string;
  /** `svc_live_...` or `svc_test_...`; omit for the keyless sandbox only. */
  apiKey?: string;
  /** Sent as `Service-Version` (default `2026-10-01`); null sends none (the account's pinned version applies). */
  serviceVersion?: string | null;
  /** Retries after the first attempt (default 3; 0 turns retries off). */
  maxRetries?: number;
  /** The rest of the retry policy (back-off steps, longest `Retry-After` waited for). */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /** Timeout of each attempt in ms (default 60000: longer than the slowest sync search's 30 s + 5 s). */
  timeoutMs?: number;
  /** Default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Waits between retries (default: a timer). */
  sleep?: SleepLike;
  /** Jitter source in [0, 1) (default `Math.random`). */
  random?: () => number;
  /** Clock in ms (default `Date.now`): `Retry-After` dates and `waitUntilDone`'s deadline. */
  now?: () => number;
  /** Makes the `Idempotency-Key` of a POST the caller gave none for (default `crypto.randomUUID()`). */
  idempotencyKey?: () => string;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** Told before every retry. */
  onRetry?: (event: RetryEvent) => void;
}

export type KeyMode = 'live' | 'test' | 'keyless';

const API_KEY_SHAPE = /^svc_(live|test)_[A-Za-z0-9_-]{1,128}$/;

function normaliseBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  let path = url.pathname.replace(/\/+$/, '');
  if (!/\/v\d+$/.test(path)) path = `${path}/v1`;
  return `${url.origin}${path}`;
}

function randomUuid(): string {
  return globalThis.crypto.randomUUID();
}

export class JobsClient {
  readonly jobs: JobsResource;
  readonly searches: SearchesResource;
  readonly companies: CompaniesResource;
  readonly watches: WatchesResource;
  readonly events: EventsResource;
  readonly ledger: LedgerResource;
  readonly webhooks: WebhooksResource;
  readonly webhookEndpoints: WebhookEndpointsResource;
  readonly sandbox: SandboxResource;
  /** `live` or `test` from the key's prefix; `keyless` without one (sandbox only). */
  readonly mode: KeyMode;
  readonly baseUrl: string;
  private readonly transport: Transport;

  constructor(options: JobsClientOptions) {
    if (options.apiKey !== undefined && !API_KEY_SHAPE.test(options.apiKey)) {
      throw new TypeError(
        'JobsClient: apiKey must be a svc_live_... or svc_test_... key (omit it for the keyless sandbox)',
      );
    }
    const fetchImpl = options.fetch ?? (globalThis.fetch?.bind(globalThis) as FetchLike | undefined);
    if (!fetchImpl) throw new TypeError('JobsClient: no fetch available; pass options.fetch');
    this.baseUrl = normaliseBaseUrl(options.baseUrl);
    this.mode = options.apiKey === undefined ? 'keyless' : options.apiKey.startsWith('svc_live_') ? 'live' : 'test';
    this.transport = new Transport({
      baseUrl: this.baseUrl,
      apiKey: options.apiKey,
      serviceVersion: options.serviceVersion === undefined ? API_VERSION : options.serviceVersion,
      fetch: fetchImpl,
      sleep: options.sleep ?? defaultSleep,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
      newIdempotencyKey: options.idempotencyKey ?? randomUuid,
      retry: {
        ...DEFAULT_RETRY_POLICY,
        ...options.retry,
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      },
      timeoutMs: options.timeoutMs ?? 60_000,
      headers: options.headers ?? {},
      onRetry: options.onRetry,
    });
    this.jobs = new JobsResource(this.transport);
    this.searches = new SearchesResource(this.transport);
    this.companies = new CompaniesResource(this.transport);
    this.watches = new WatchesResource(this.transport);
    this.events = new EventsResource(this.transport);
    this.ledger = new LedgerResource(this.transport);
    this.webhooks = new WebhooksResource(this.transport);
    this.webhookEndpoints = new WebhookEndpointsResource(this.transport);
    this.sandbox = new SandboxResource(this.transport);
  }

  /** `GET /account`: plan, balance, rate limit; free, and a good key check. */
  async account(options?: RequestOptions): Promise<WithResponse<Account>> {
    const { body, info } = await this.transport.request<Account>(
      { method: 'GET', path: '/account', auth: true },
      options,
    );
    return withResponse(body, info);
  }

  /** `GET /providers`: the seven sources, their status, and which the plan routes to. */
  async providers(options?: RequestOptions): Promise<WithResponse<ProviderListResponse>> {
    const { body, info } = await this.transport.request<ProviderListResponse>(
      { method: 'GET', path: '/providers', auth: true },
      options,
    );
    return withResponse(body, info);
  }
}

/** Whether `error` is an `ApiError` with this `code`. */
export function isApiError(error: unknown, code?: ApiError['code']): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
