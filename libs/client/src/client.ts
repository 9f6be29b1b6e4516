/**
 * `JobsClient`: one typed method per public endpoint of interface.md, grouped by resource, with
 * async iterators over every paged endpoint. Sandbox, test and live differ by key only: the same
 * client without a key calls the keyless sandbox; with a `svc_test_` key every endpoint answers
 * sandbox data, never charged; with a `svc_live_` key the real thing.
 */
import type {
  Account,
  AsyncSearch,
  AsyncSearchCreateRequestInput,
  AsyncSearchStatus,
  CompanyProfile,
  DryRunEstimate,
  Event,
  EventListResponse,
  Job,
  JobSearchRequestInput,
  JobSearchResponse,
  LedgerEntry,
  LedgerListResponse,
  ProviderListResponse,
  Watch,
  WatchCreateRequestInput,
  WatchListResponse,
  WebhookEndpoint,
  WebhookEndpointListResponse,
  WebhookEndpointRotated,
  WebhookEndpointSecret,
  WebhookReplayResponse,
} from '@jobs/contracts';
import { SERVICE_VERSION } from '@jobs/contracts';
import { ApiError } from './errors.js';
import { CreditBudget, itemsOf, walkPages } from './paging.js';
import { withResponse, type Billed, type BilledResponseInfo, type ResponseInfo, type WithResponse } from './response-info.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';
import {
  defaultSleep,
  Transport,
  type AbortSignalLike,
  type FetchLike,
  type RequestOptions,
  type RequestSpec,
  type RetryEvent,
  type SleepLike,
} from './transport.js';
import { verifyWebhook, verifyWebhookSignature } from './webhooks.js';

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

/** A sync search request as sent for one page (the estimate has its own method). */
export type JobSearchInput = Omit<JobSearchRequestInput, 'dry_run'>;
/** What a page walk sends on every page (the cursor is added by the walk). */
export type JobSearchPagesInput = Omit<JobSearchRequestInput, 'dry_run'>;

export interface SearchPagingOptions extends Omit<RequestOptions, 'idempotencyKey'> {
  /**
   * Page n is sent with `Idempotency-Key: <prefix>:<n>` (n from 1), so a walk run again with the
   * same prefix replays its pages instead of paying again. Each page has its own key either way
   * (a different body needs a different key); without a prefix they are random.
   */
  idempotencyKeyPrefix?: string;
  /**
   * The most credits the whole walk may charge (a whole number, 0 or more). Each page is sent
   * with what is left as `waterfall.max_credits` (or the body's own `max_credits` when that is
   * lower: it still caps each page), so no page can charge past the budget; the walk ends once it
   * is spent, without asking another page. Without it only a body's `max_credits` caps, per page.
   */
  maxCredits?: number;
}

export interface WebhookEndpointRotateOptions extends RequestOptions {
  /** How long the replaced secret keeps signing deliveries beside the new one: 0 to 604800 s (default 86400; 0 ends it at once). */
  previousExpiresInSeconds?: number;
}

export interface AsyncSearchReadOptions extends RequestOptions {
  cursor?: string;
  /** 1 to 100, default 100. */
  limit?: number;
}

export interface WaitOptions {
  /** Between two reads, ms (default 2000). */
  pollIntervalMs?: number;
  /** Give up after this many ms (default 10 minutes) with an Error. */
  timeoutMs?: number;
  signal?: AbortSignalLike;
}

export interface AsyncSearchResultOptions extends Omit<RequestOptions, 'idempotencyKey'>, WaitOptions {
  /** Jobs per page, 1 to 100 (default 100). */
  limit?: number;
  /** Poll until the search is finished before reading (default true); false reads what is there now. */
  wait?: boolean;
}

export interface EventListOptions extends RequestOptions {
  /** A `next_cursor` of an earlier page; omit to start from the oldest retained event. */
  since?: string;
  /** 1 to 100, default 100. */
  limit?: number;
}

export interface LedgerListOptions extends RequestOptions {
  /** Only the entries of this job. */
  job_id?: string;
  cursor?: string;
}

/** Statuses an async search ends in (`search.completed` announces them). */
export const FINAL_ASYNC_SEARCH_STATUSES: readonly AsyncSearchStatus[] = ['completed', 'partial', 'failed'];

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

function billed<T extends object>(body: T, info: ResponseInfo): Billed<T> {
  // every billable endpoint sends X-Credits-*; a proxy that strips them must not break typing
  const credits = info.credits ?? { charged: 0, remaining: 0 };
  return withResponse(body, { ...info, credits } as BilledResponseInfo);
}

abstract class Resource {
  constructor(protected readonly transport: Transport) {}

  protected async call<T extends object>(spec: RequestSpec, options?: RequestOptions): Promise<WithResponse<T>> {
    const { body, info } = await this.transport.request<T>(spec, options);
    return withResponse(body, info);
  }

  protected async callBilled<T extends object>(spec: RequestSpec, options?: RequestOptions): Promise<Billed<T>> {
    const { body, info } = await this.transport.request<T>(spec, options);
    return billed(body, info);
  }
}

/** `POST /jobs/search` (pages, estimate) and `GET /jobs/{id}`. */
export class JobsResource extends Resource {
  /** One page of a sync search: 1 credit per unique job the account never paid for. */
  search(body: JobSearchInput, options?: RequestOptions): Promise<Billed<JobSearchResponse>> {
    return this.callBilled({ method: 'POST', path: '/jobs/search', body: { ...body }, auth: true }, options);
  }

  /** The free estimate (`dry_run: true`) of the same search. */
  dryRun(body: Omit<JobSearchInput, 'cursor'>, options?: RequestOptions): Promise<Billed<DryRunEstimate>> {
    return this.callBilled({ method: 'POST', path: '/jobs/search', body: { ...body, dry_run: true }, auth: true }, options);
  }

  /**
   * Every page of a search, in order: the same `filters`, `waterfall` and `limit` on each, plus
   * the previous page's `cursor` (start elsewhere with `body.cursor`). Each page is billed like a
   * search (new unique jobs only) and has its own `Idempotency-Key`. With `maxCredits` the whole
   * walk stays within that budget: each page may charge only what is left of it.
   */
  searchPages(body: JobSearchPagesInput, options: SearchPagingOptions = {}): AsyncGenerator<Billed<JobSearchResponse>, void, undefined> {
    const { cursor: start, ...request } = body;
    const { idempotencyKeyPrefix, maxCredits, ...rest } = options;
    if (maxCredits !== undefined && (!Number.isInteger(maxCredits) || maxCredits < 0)) throw new RangeError('maxCredits: a whole number of credits, 0 or more');
    const budget = maxCredits === undefined ? undefined : new CreditBudget(maxCredits);
    let n = 0;
    return walkPages(
      async (cursor) => {
        n += 1;
        const key = idempotencyKeyPrefix === undefined ? undefined : `${idempotencyKeyPrefix}:${n}`;
        const waterfall = budget ? { ...request.waterfall, max_credits: budget.capFor(request.waterfall?.max_credits) } : request.waterfall;
        const page = await this.search(
          { ...request, ...(waterfall === undefined ? {} : { waterfall }), ...(cursor === undefined ? {} : { cursor }) },
          { ...rest, ...(key ? { idempotencyKey: key } : {}) },
        );
        budget?.spend(page.$response.credits.charged);
        return page;
      },
      start,
      budget ? () => budget.spent() : undefined,
    );
  }

  /** Every job of every page (see `searchPages`). */
  searchAll(body: JobSearchPagesInput, options?: SearchPagingOptions): AsyncGenerator<Job, void, undefined> {
    return itemsOf(this.searchPages(body, options));
  }

  /** A full job: 1 credit unless the account already paid for it. */
  get(id: string, options?: RequestOptions): Promise<Billed<Job>> {
    return this.callBilled({ method: 'GET', path: `/jobs/${encodeURIComponent(id)}`, auth: true }, options);
  }
}

/** Async searches: `POST /searches`, `GET /searches/{id}`, waiting and paging the results. */
export class SearchesResource extends Resource {
  /** Starts an async search (202, `queued`); jobs are charged as collected. */
  create(body: AsyncSearchCreateRequestInput, options?: RequestOptions): Promise<WithResponse<AsyncSearch>> {
    return this.call({ method: 'POST', path: '/searches', body, auth: true }, options);
  }

  /** Its state, and a page of its jobs once `completed` or `partial`. Free. */
  get(id: string, options: AsyncSearchReadOptions = {}): Promise<WithResponse<AsyncSearch>> {
    const { cursor, limit, ...rest } = options;
    return this.call({ method: 'GET', path: `/searches/${encodeURIComponent(id)}`, query: { cursor, limit }, auth: true }, rest);
  }

  /** Reads the search until it is `completed`, `partial` or `failed` (an `on_hold` search waits for credits). */
  async waitUntilDone(id: string, options: WaitOptions & { limit?: number } = {}): Promise<WithResponse<AsyncSearch>> {
    const interval = options.pollIntervalMs ?? 2_000;
    const deadline = this.transport.now() + (options.timeoutMs ?? 600_000);
    for (;;) {
      const search = await this.get(id, { ...(options.limit ? { limit: options.limit } : {}), ...(options.signal ? { signal: options.signal } : {}) });
      if (FINAL_ASYNC_SEARCH_STATUSES.includes(search.status)) return search;
      if (this.transport.now() + interval > deadline) throw new Error(`async search ${id} is still ${search.status} after ${options.timeoutMs ?? 600_000} ms`);
      await this.transport.sleep(interval, options.signal);
    }
  }

  /** Every page of a finished search's jobs (by default waiting for it to finish first). */
  async *resultPages(id: string, options: AsyncSearchResultOptions = {}): AsyncGenerator<WithResponse<AsyncSearch>, void, undefined> {
    const { limit, wait = true, pollIntervalMs, timeoutMs, ...request } = options;
    let first: WithResponse<AsyncSearch> | undefined;
    if (wait) {
      first = await this.waitUntilDone(id, {
        ...(limit ? { limit } : {}),
        ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      });
    }
    yield* walkPages(async (cursor) => {
      if (cursor === undefined && first) return first;
      return this.get(id, { ...request, ...(cursor ? { cursor } : {}), ...(limit ? { limit } : {}) });
    });
  }

  /** Every job a finished search collected. */
  results(id: string, options?: AsyncSearchResultOptions): AsyncGenerator<Job, void, undefined> {
    return itemsOf(this.resultPages(id, options));
  }
}

/** `GET /companies/{domain}`: the hiring profile, 1 credit per request. */
export class CompaniesResource extends Resource {
  get(domain: string, options?: RequestOptions): Promise<Billed<CompanyProfile>> {
    return this.callBilled({ method: 'GET', path: `/companies/${encodeURIComponent(domain)}`, auth: true }, options);
  }
}

/** Watches: create, list (paged by the server), delete. */
export class WatchesResource extends Resource {
  /** A company or saved-search watch (201); `403 plan_required` below `pro`. */
  create(body: WatchCreateRequestInput, options?: RequestOptions): Promise<WithResponse<Watch>> {
    return this.call({ method: 'POST', path: '/watches', body, auth: true }, options);
  }

  list(options: RequestOptions & { cursor?: string } = {}): Promise<WithResponse<WatchListResponse>> {
    const { cursor, ...rest } = options;
    return this.call({ method: 'GET', path: '/watches', query: { cursor }, auth: true }, rest);
  }

  pages(options: RequestOptions & { cursor?: string } = {}): AsyncGenerator<WithResponse<WatchListResponse>, void, undefined> {
    const { cursor: start, ...rest } = options;
    return walkPages((cursor) => this.list({ ...rest, ...(cursor ? { cursor } : {}) }), start);
  }

  /** Every watch of the account. */
  iterate(options?: RequestOptions & { cursor?: string }): AsyncGenerator<Watch, void, undefined> {
    return itemsOf(this.pages(options));
  }

  /**
   * Deletes a watch (204, no body): the answer's info. A 404 on a retry after an attempt whose
   * answer was lost (network error, 5xx) means that attempt deleted it: returned, `status` 404.
   */
  async delete(id: string, options?: RequestOptions): Promise<ResponseInfo> {
    const { info } = await this.transport.request<undefined>({ method: 'DELETE', path: `/watches/${encodeURIComponent(id)}`, auth: true }, options);
    return info;
  }
}

/** `GET /events`: the event feed, oldest first, resumable from any `next_cursor` as `since`. */
export class EventsResource extends Resource {
  list(options: EventListOptions = {}): Promise<WithResponse<EventListResponse>> {
    const { since, limit, ...rest } = options;
    return this.call({ method: 'GET', path: '/events', query: { since, limit }, auth: true }, rest);
  }

  /**
   * Pages from `since` to the end of the feed. A page with events carries the cursor of its last
   * event: store it once the page is handled and pass it as `since` next time to get exactly the
   * events stored after it. The empty page at the end has `next_cursor: null` (keep the last one).
   */
  pages(options: EventListOptions = {}): AsyncGenerator<WithResponse<EventListResponse>, void, undefined> {
    const { since: start, ...rest } = options;
    return walkPages((since) => this.list({ ...rest, ...(since ? { since } : {}) }), start);
  }

  /** Every event from `since` to the end of the feed. */
  iterate(options?: EventListOptions): AsyncGenerator<Event, void, undefined> {
    return itemsOf(this.pages(options));
  }
}

/** `GET /billing/ledger`: charges and free re-reads, newest first. */
export class LedgerResource extends Resource {
  list(options: LedgerListOptions = {}): Promise<WithResponse<LedgerListResponse>> {
    const { job_id, cursor, ...rest } = options;
    return this.call({ method: 'GET', path: '/billing/ledger', query: { job_id, cursor }, auth: true }, rest);
  }

  pages(options: LedgerListOptions = {}): AsyncGenerator<WithResponse<LedgerListResponse>, void, undefined> {
    const { cursor: start, ...rest } = options;
    return walkPages((cursor) => this.list({ ...rest, ...(cursor ? { cursor } : {}) }), start);
  }

  /** Every ledger entry (of one job with `job_id`). */
  iterate(options?: LedgerListOptions): AsyncGenerator<LedgerEntry, void, undefined> {
    return itemsOf(this.pages(options));
  }
}

/** `POST /webhooks/replay`, and the receiver's check of a delivery. */
export class WebhooksResource extends Resource {
  /** Re-sends an event to its webhook endpoint (202 `queued`); replays never charge. */
  replay(eventId: string, options?: RequestOptions): Promise<WithResponse<WebhookReplayResponse>> {
    return this.call({ method: 'POST', path: '/webhooks/replay', body: { event_id: eventId }, auth: true }, options);
  }

  /** `verifyWebhook`: checks a delivery's `Service-Signature` and returns its typed event. */
  readonly verify = verifyWebhook;
  /** `verifyWebhookSignature`: the signature and timestamp check alone. */
  readonly verifySignature = verifyWebhookSignature;
}

/**
 * Webhook endpoints (`/webhook_endpoints`): the URLs your watches and async searches deliver to,
 * and the signing secret of each, which `verifyWebhook` needs. A test key sees its test endpoints.
 */
export class WebhookEndpointsResource extends Resource {
  /** One page of endpoints, each with a secret hint and what uses it. Free. */
  list(options: RequestOptions & { cursor?: string } = {}): Promise<WithResponse<WebhookEndpointListResponse>> {
    const { cursor, ...rest } = options;
    return this.call({ method: 'GET', path: '/webhook_endpoints', query: { cursor }, auth: true }, rest);
  }

  pages(options: RequestOptions & { cursor?: string } = {}): AsyncGenerator<WithResponse<WebhookEndpointListResponse>, void, undefined> {
    const { cursor: start, ...rest } = options;
    return walkPages((cursor) => this.list({ ...rest, ...(cursor ? { cursor } : {}) }), start);
  }

  /** Every endpoint of the account (of the key's mode). */
  iterate(options?: RequestOptions & { cursor?: string }): AsyncGenerator<WebhookEndpoint, void, undefined> {
    return itemsOf(this.pages(options));
  }

  /** The secret that signs deliveries to `url` (made now if the URL has none yet); pass it to `verifyWebhook`. Free. */
  secret(url: string, options?: RequestOptions): Promise<WithResponse<WebhookEndpointSecret>> {
    return this.call({ method: 'POST', path: '/webhook_endpoints/secret', body: { url }, auth: true }, options);
  }

  /**
   * A new secret for `url`. Until `previous_expires_at` deliveries carry the old secret's
   * signature too, so receivers switch when ready. The request's `Idempotency-Key` (one is made
   * when not given, and kept over retries) makes a retry answer the same new secret. Free.
   */
  rotate(url: string, options: WebhookEndpointRotateOptions = {}): Promise<WithResponse<WebhookEndpointRotated>> {
    const { previousExpiresInSeconds, ...rest } = options;
    const body = { url, ...(previousExpiresInSeconds === undefined ? {} : { previous_expires_in_seconds: previousExpiresInSeconds }) };
    return this.call({ method: 'POST', path: '/webhook_endpoints/secret/rotate', body, auth: true }, rest);
  }
}

/** `POST /sandbox/jobs/search`: no key, fixed illustrative data, never charged. */
export class SandboxResource extends Resource {
  search(body: JobSearchInput = {}, options?: RequestOptions): Promise<Billed<JobSearchResponse>> {
    return this.callBilled({ method: 'POST', path: '/sandbox/jobs/search', body: { ...body }, auth: false }, options);
  }

  dryRun(body: Omit<JobSearchInput, 'cursor'> = {}, options?: RequestOptions): Promise<Billed<DryRunEstimate>> {
    return this.callBilled({ method: 'POST', path: '/sandbox/jobs/search', body: { ...body, dry_run: true }, auth: false }, options);
  }

  searchPages(body: JobSearchPagesInput = {}, options: Omit<RequestOptions, 'idempotencyKey'> = {}): AsyncGenerator<Billed<JobSearchResponse>, void, undefined> {
    const { cursor: start, ...request } = body;
    return walkPages((cursor) => this.search({ ...request, ...(cursor === undefined ? {} : { cursor }) }, options), start);
  }
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
      throw new TypeError('JobsClient: apiKey must be a svc_live_... or svc_test_... key (omit it for the keyless sandbox)');
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
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry, ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }) },
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
    const { body, info } = await this.transport.request<Account>({ method: 'GET', path: '/account', auth: true }, options);
    return withResponse(body, info);
  }

  /** `GET /providers`: the seven sources, their status, and which the plan routes to. */
  async providers(options?: RequestOptions): Promise<WithResponse<ProviderListResponse>> {
    const { body, info } = await this.transport.request<ProviderListResponse>({ method: 'GET', path: '/providers', auth: true }, options);
    return withResponse(body, info);
  }
}

/** Whether `error` is an `ApiError` with this `code`. */
export function isApiError(error: unknown, code?: ApiError['code']): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
