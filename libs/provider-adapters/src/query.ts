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
