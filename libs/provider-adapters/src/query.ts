import type { Filters } from '@jobs/contracts';

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
