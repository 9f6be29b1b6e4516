import type { Filters } from '@jobs/contracts';
import type { ProviderQuery } from './provider-adapter.js';

/**
 * The filters a provider can apply itself, as the own index's query parameters. Filters no
 * provider supports are applied to the canonical results afterwards.
 */
export function searchParamsFor(filters: Filters): Array<[string, string]> {
  const params: Array<[string, string]> = [];
  if (filters.title_or?.length) params.push(['title', filters.title_or.join(',')]);
  if (filters.country_code_or?.length === 1) params.push(['country_code', filters.country_code_or[0]!]);
  const domains = domainList(filters);
  if (domains) params.push(['company_domain', domains]);
  if (filters.remote !== undefined && filters.remote !== null) params.push(['remote', String(filters.remote)]);
  if (filters.posted_within_days)
    params.push([
      'posted_since',
      new Date(Date.now() - filters.posted_within_days * 86_400_000).toISOString().slice(0, 10),
    ]);
  return params;
}

/** The one country of a filter, or undefined when none or several (then filtered afterwards). */
export function oneCountry(filters: Filters): string | undefined {
  return filters.country_code_or?.length === 1 ? filters.country_code_or[0]! : undefined;
}

/**
 * The company domains of a filter as the providers' company parameter takes them (one domain, or
 * several as a comma-separated list: a refresh re-verifies many companies in one listing), or
 * undefined when none.
 */
export function domainList(filters: Filters): string | undefined {
  return filters.company_domain_or?.length ? filters.company_domain_or.join(',') : undefined;
}

/** The remote filter when set (true or false), else undefined. */
export function remoteFilter(filters: Filters): boolean | undefined {
  return filters.remote === true || filters.remote === false ? filters.remote : undefined;
}

/**
 * Start of the posted window as epoch ms, or undefined: the later of `posted_within_days`
 * (counted back from `now`) and an explicit `postedSince` (a refresh's new-listings window).
 */
export function postedSinceMs(filters: Filters, now = Date.now(), postedSince?: number): number | undefined {
  const window = filters.posted_within_days ? now - filters.posted_within_days * 86_400_000 : undefined;
  if (window === undefined) return postedSince;
  return postedSince === undefined ? window : Math.max(window, postedSince);
}

/** The filters every partner's search takes, read once from a provider query. */
export interface PartnerFilters {
  /** Title keywords, any of them (empty: no keyword filter). */
  keywords: readonly string[];
  country: string | undefined;
  /**
   * Start of the posted window (epoch ms), computed once for the whole read: a page token may be
   * bound to the exact query.
   */
  since: number | undefined;
  /** Only postings the partner first listed at or after this moment (epoch ms): a refresh's new-listings window. */
  listedSince: number | undefined;
  domain: string | undefined;
  remote: boolean | undefined;
}

/**
 * The partner filters of a query, each read once. Every partner adapter starts its `search` from
 * these and pages with `collectPages`; what stays in each adapter, though the blocks look alike, is
 * the partner's wire format: its parameter names, separators, units and paging.
 */
export function partnerFilters({ filters, asOf, postedSince, listedSince }: ProviderQuery): PartnerFilters {
  return {
    keywords: filters.title_or ?? [],
    country: oneCountry(filters),
    since: postedSinceMs(filters, asOf, postedSince),
    listedSince,
    domain: domainList(filters),
    remote: remoteFilter(filters),
  };
}

/** A query parameter's value: left out when undefined or empty, one parameter per item of a list. */
export type ParamValue = string | number | boolean | readonly string[] | undefined;

/**
 * The URL with its query parameters, in the order given. Each partner names and writes the
 * filters its own way: the table of names and encodings is what stays in its adapter.
 */
export function withParams(url: URL, params: Record<string, ParamValue>): URL {
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    if (typeof value === 'object') for (const item of value) url.searchParams.append(name, item);
    else url.searchParams.set(name, String(value));
  }
  return url;
}

/** `write(value)` for a value that is set, else undefined (the parameter is left out). */
export function ifSet<T, R>(value: T | undefined, write: (value: T) => R): R | undefined {
  return value === undefined ? undefined : write(value);
}
