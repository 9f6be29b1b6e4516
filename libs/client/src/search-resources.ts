// The search resources: sync search pages and estimates, async searches, the keyless sandbox.
import type {
  AsyncSearch,
  AsyncSearchCreateRequestInput,
  AsyncSearchStatus,
  DryRunEstimate,
  Job,
  JobSearchRequestInput,
  JobSearchResponse,
} from '@jobs/contracts';
import { CreditBudget, itemsOf, walkPages } from './paging.js';
import { Resource } from './resource.js';
import { AsyncSearchFailedError } from './errors.js';
import type { Billed, WithResponse } from './response-info.js';
import type { AbortSignalLike, RequestOptions } from './transport.js';

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

/** Statuses an async search ends in (`search.completed` announces them). */
export const FINAL_ASYNC_SEARCH_STATUSES: readonly AsyncSearchStatus[] = ['completed', 'partial', 'failed'];

/** `POST /jobs/search` (pages, estimate) and `GET /jobs/{id}`. */
export class JobsResource extends Resource {
  /** One page of a sync search: 1 credit per unique job the account never paid for. */
  search(body: JobSearchInput, options?: RequestOptions): Promise<Billed<JobSearchResponse>> {
    return this.callBilled({ method: 'POST', path: '/jobs/search', body: { ...body }, auth: true }, options);
  }

  /** The free estimate (`dry_run: true`) of the same search. */
  dryRun(body: Omit<JobSearchInput, 'cursor'>, options?: RequestOptions): Promise<Billed<DryRunEstimate>> {
    return this.callBilled(
      { method: 'POST', path: '/jobs/search', body: { ...body, dry_run: true }, auth: true },
      options,
    );
  }

  /**
   * Every page of a search, in order: the same `filters`, `waterfall` and `limit` on each, plus
   * the previous page's `cursor` (start elsewhere with `body.cursor`). Each page is billed like a
   * search (new unique jobs only) and has its own `Idempotency-Key`. With `maxCredits` the whole
   * walk stays within that budget: each page may charge only what is left of it.
   */
  searchPages(
    body: JobSearchPagesInput,
    options: SearchPagingOptions = {},
  ): AsyncGenerator<Billed<JobSearchResponse>, void, undefined> {
    const { cursor: start, ...request } = body;
    const { idempotencyKeyPrefix, maxCredits, ...rest } = options;
    if (maxCredits !== undefined && (!Number.isInteger(maxCredits) || maxCredits < 0))
      throw new RangeError('maxCredits: a whole number of credits, 0 or more');
    const budget = maxCredits === undefined ? undefined : new CreditBudget(maxCredits);
    let n = 0;
    return walkPages(
      async (cursor) => {
        n += 1;
        const key = idempotencyKeyPrefix === undefined ? undefined : `${idempotencyKeyPrefix}:${n}`;
        const waterfall = budget
          ? { ...request.waterfall, max_credits: budget.capFor(request.waterfall?.max_credits) }
          : request.waterfall;
        const page = await this.search(
          {
            ...request,
            ...(waterfall === undefined ? {} : { waterfall }),
            ...(cursor === undefined ? {} : { cursor }),
          },
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
    return this.call(
      { method: 'GET', path: `/searches/${encodeURIComponent(id)}`, query: { cursor, limit }, auth: true },
      rest,
    );
  }

  /** Reads the search until it is `completed`, `partial` or `failed` (an `on_hold` search waits for credits). */
  async waitUntilDone(id: string, options: WaitOptions & { limit?: number } = {}): Promise<WithResponse<AsyncSearch>> {
    const interval = options.pollIntervalMs ?? 2_000;
    const deadline = this.transport.now() + (options.timeoutMs ?? 600_000);
    for (;;) {
      const search = await this.get(id, {
        ...(options.limit ? { limit: options.limit } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (FINAL_ASYNC_SEARCH_STATUSES.includes(search.status)) return search;
      if (this.transport.now() + interval > deadline)
        throw new Error(`async search ${id} is still ${search.status} after ${options.timeoutMs ?? 600_000} ms`);
      await this.transport.sleep(interval, options.signal);
    }
  }

  /** Every page of a finished search's jobs (by default waiting for it to finish first). */
  async *resultPages(
    id: string,
    options: AsyncSearchResultOptions = {},
  ): AsyncGenerator<WithResponse<AsyncSearch>, void, undefined> {
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

  /** Every job a finished search collected; `AsyncSearchFailedError` when it ended `failed`. */
  async *results(id: string, options?: AsyncSearchResultOptions): AsyncGenerator<Job, void, undefined> {
    for await (const page of this.resultPages(id, options)) {
      if (page.status === 'failed') throw new AsyncSearchFailedError(page);
      yield* page.data;
    }
  }
}

/** `POST /sandbox/jobs/search`: no key, fixed illustrative data, never charged. */
export class SandboxResource extends Resource {
  search(body: JobSearchInput = {}, options?: RequestOptions): Promise<Billed<JobSearchResponse>> {
    return this.callBilled({ method: 'POST', path: '/sandbox/jobs/search', body: { ...body }, auth: false }, options);
  }

  dryRun(body: Omit<JobSearchInput, 'cursor'> = {}, options?: RequestOptions): Promise<Billed<DryRunEstimate>> {
    return this.callBilled(
      { method: 'POST', path: '/sandbox/jobs/search', body: { ...body, dry_run: true }, auth: false },
      options,
    );
  }

  searchPages(
    body: JobSearchPagesInput = {},
    options: Omit<RequestOptions, 'idempotencyKey'> = {},
  ): AsyncGenerator<Billed<JobSearchResponse>, void, undefined> {
    const { cursor: start, ...request } = body;
    return walkPages(
      (cursor) => this.search({ ...request, ...(cursor === undefined ? {} : { cursor }) }, options),
      start,
    );
  }
}
