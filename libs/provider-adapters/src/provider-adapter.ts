import { Agent, type Dispatcher } from 'undici';
import type { Filters, NormalizedProviderRecord, ProviderSlug } from '@jobs/contracts';

export interface ProviderQuery {
  filters: Filters;
  /** How many records the search wants from this provider. */
  want: number;
  /** Aborts when the search's deadline passes. */
  signal: AbortSignal;
  /**
   * The deadline is a timeout given to the provider's call (a refresh sweep's), not a caller's
   * own: running past it is the provider's failure, and counts towards its circuit breaker.
   * Without it an abort says nothing about the provider (a search's deadline may be tight).
   */
  deadlineIsCallTimeout?: boolean;
  /**
   * Resumable reading (async search chunks): start at `paging.start` (null: the first page),
   * read whole pages until `want` records are in, and leave in `paging.next` where the next read
   * starts (null: no more). Without it, a search reads from the first page and keeps `want` records.
   */
  paging?: ResumablePaging;
  /**
   * Pages asked side by side where the provider's pages are addressed by number or offset (an
   * async chunk's pages; default 1: one after the other). Cursor-paged providers read in turn.
   */
  parallelPages?: number;
  /** The moment `posted_within_days` counts back from (default now); fixed over a resumed read. */
  asOf?: number;
  /** Only postings posted at or after this moment (epoch ms). */
  postedSince?: number;
  /**
   * Only postings the partner first listed at or after this moment (epoch ms), whatever their
   * posting date: a refresh's new-listings window (an aggregator lists a posting days after the
   * employer published it). The own crawler has its change feed instead and ignores it.
   */
  listedSince?: number;
  /**
   * Only openings that opened, changed or closed at or after this moment (epoch ms), closed ones
   * with their reason: the own crawler's change feed (a refresh's `catalog_changes` sweep).
   * Partners have no such feed and ignore it.
   */
  changedSince?: number;
  /**
   * Only these listings, read one by one by the provider's own id (a refresh's `listings` sweep):
   * those the provider still shows come back, the others do not; filters and paging do not apply.
   * Only an adapter that `readsListings` is asked.
   */
  listingIds?: readonly string[];
}

/** A provider's own paging position: its cursor (token, page number or offset) and page size. */
export interface PagePosition {
  cursor: string | number;
  page_size: number;
}

export interface ResumablePaging {
  start: PagePosition | null;
  next?: PagePosition | null;
  /**
   * The total each page read reported, in order (filled in by the adapter when the provider
   * says): a listing read whole whose total moved between its pages may have shifted under the
   * reader (a posting skipped), so a refresh sweep does not judge absences from it.
   */
  totals?: number[];
  /**
   * Items of the pages read that did not map to a record (a field off the contract): the
   * listing still lists them, so a refresh sweep that met one does not judge absences from it.
   */
  skipped?: number;
}

/**
 * One partner's API behind one interface: build its request from our filters, page through
 * its own paging, and map its own format into normalized records. Swapping a simulated
 * provider for the real one is a new adapter and a base URL.
 */
export interface ProviderAdapter {
  readonly provider: ProviderSlug;
  /** The adapter reads single listings by id (`ProviderQuery.listingIds`). */
  readonly readsListings?: boolean;
  search(query: ProviderQuery): Promise<NormalizedProviderRecord[]>;
}

/** The provider answered with an error status or an unreadable body. */
export class ProviderResponseError extends Error {
  constructor(
    readonly provider: ProviderSlug,
    readonly status: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderResponseError';
  }
}

/** How many of a `listingIds` read's listings are asked side by side. */
export const LISTING_READS_IN_PARALLEL = 8;

/**
 * Reads listings by id, `LISTING_READS_IN_PARALLEL` at a time: `read` gives the listing, or null
 * when the provider no longer shows it (404). Any other failure fails the whole read.
 */
export async function readListings<T>(ids: readonly string[], read: (id: string) => Promise<T | null>): Promise<T[]> {
  const found: Array<T | null> = new Array<T | null>(ids.length).fill(null);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < ids.length; i = next++) found[i] = await read(ids[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(LISTING_READS_IN_PARALLEL, ids.length) }, worker));
  return found.filter((f): f is T => f !== null);
}

/**
 * Partner APIs are called through undici's request API on keep-alive pools, one per origin: a
 * call costs about half the CPU of the global `fetch` (no WHATWG Request, Headers, Response and
 * body stream per call), and a search makes one per partner page. The global `fetch` is undici
 * too, so the OpenTelemetry undici instrumentation traces both alike.
 */
const partners = new Agent({ keepAliveTimeout: 30_000 });

interface PartnerCall {
  method: 'GET' | 'POST';
  url: URL;
  signal: AbortSignal;
  body?: unknown;
  /** A 404 answers null (a listing the provider no longer shows) instead of failing. */
  missingIsNull?: boolean;
}

/**
 * One partner call's JSON answer. Fails with a ProviderResponseError: its status for an answer
 * that is not a 2xx or not JSON, none when no whole answer came (a network failure, which may
 * pass); the deadline's abort stays what it is (the caller tells a timeout by its signal).
 */
async function callPartner(provider: ProviderSlug, call: PartnerCall): Promise<unknown> {
  let res: Dispatcher.ResponseData;
  let text: string;
  try {
    res = await partners.request({
      origin: call.url.origin,
      path: `${call.url.pathname}${call.url.search}`,
      method: call.method,
      signal: call.signal,
      headers:
        call.body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    });
    if (res.statusCode < 200 || res.statusCode > 299) {
      await res.body.dump();
      if (res.statusCode === 404 && call.missingIsNull) return null;
      throw new ProviderResponseError(provider, res.statusCode, `${provider} answered ${res.statusCode}`);
    }
    text = await res.body.text();
  } catch (error) {
    if (error instanceof ProviderResponseError || call.signal.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProviderResponseError(provider, null, `${provider} did not answer: ${reason}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderResponseError(provider, res.statusCode, `${provider} sent a body that is not JSON`);
  }
}

/** GET a listing's JSON by id: null when the provider answers 404 (it no longer shows it). */
export function getListingJson(provider: ProviderSlug, url: URL, signal: AbortSignal): Promise<unknown> {
  return callPartner(provider, { method: 'GET', url, signal, missingIsNull: true });
}

export function getJson(provider: ProviderSlug, url: URL, signal: AbortSignal): Promise<unknown> {
  return callPartner(provider, { method: 'GET', url, signal });
}

/** POST a JSON body and read the JSON answer (providers that search by POST). */
export function postJson(provider: ProviderSlug, url: URL, body: unknown, signal: AbortSignal): Promise<unknown> {
  return callPartner(provider, { method: 'POST', url, signal, body });
}
