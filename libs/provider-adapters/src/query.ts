import type { Filters } from '@jobs/contracts';

/**
 * The filters a provider can apply itself, as the own index's query parameters. Filters no
 * provider supports are applied to the canonical results afterwards.
 */
export function searchParamsFor(filters: Filters): Array<[string, string]> {
  const params: Array<[string, string]> = [];
  if (filters.title_or?.length) params.push(['title', filters.title_or.join(',')]);
  if (filters.country_code_or?.length === 1) params.push(['country_code', filters.country_code_or[0]!]);
  if (filters.company_domain_or?.length === 1) params.push(['company_domain', filters.company_domain_or[0]!]);
  if (filters.remote !== undefined && filters.remote !== null) params.push(['remote', String(filters.remote)]);
  if (filters.posted_within_days) params.push(['posted_since', new Date(Date.now() - filters.posted_within_days * 86_400_000).toISOString().slice(0, 10)]);
  return params;
}

/** The one country of a filter, or undefined when none or several (then filtered afterwards). */
export function oneCountry(filters: Filters): string | undefined {
  return filters.country_code_or?.length === 1 ? filters.country_code_or[0]! : undefined;
}

/** The one company domain of a filter, or undefined when none or several. */
export function oneDomain(filters: Filters): string | undefined {
  return filters.company_domain_or?.length === 1 ? filters.company_domain_or[0]! : undefined;
}

/** The remote filter when set (true or false), else undefined. */
export function remoteFilter(filters: Filters): boolean | undefined {
  return filters.remote === true || filters.remote === false ? filters.remote : undefined;
}

/** Start of the posted-within window as epoch ms, or undefined. `now` for tests. */
export function postedSinceMs(filters: Filters, now = Date.now()): number | undefined {
  return filters.posted_within_days ? now - filters.posted_within_days * 86_400_000 : undefined;
}
