import type { Filters } from '@jobs/contracts';

/** Filters that every provider can apply itself. */
export const ALL_FILTERS: Filters = {
  title_or: ['engineer', 'developer'],
  country_code_or: ['GB'],
  company_domain_or: ['acme.com'],
  remote: true,
  posted_within_days: 7,
};

/** Filters a provider cannot apply (several countries): left to the fetcher. */
export const UNPUSHABLE_FILTERS: Filters = { country_code_or: ['GB', 'DE'], remote: null };

export const SEEN_AT = '2026-11-22T08:00:00.000Z';

export const signal = (): AbortSignal => new AbortController().signal;

/** Days between an ISO date (or date-time) and now, rounded. */
export const daysAgo = (iso: string): number => Math.round((Date.now() - Date.parse(iso)) / 86_400_000);
