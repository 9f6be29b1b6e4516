import type { Filters, Job } from '@jobs/contracts';

/** Hours in a working year, to compare hourly pay with `salary_min_gte` (yearly). */
const HOURS_PER_YEAR = 2080;
const YEARLY: Record<'year' | 'month' | 'hour', number> = { year: 1, month: 12, hour: HOURS_PER_YEAR };
const DAY_MS = 86_400_000;

function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9+#]+/)
    .filter(Boolean);
}

/** A keyword matches a title when each of its words starts a word of the title ("eng" finds "Engineer"). */
export function titleMatches(title: string, keyword: string): boolean {
  const titleWords = words(title);
  const keywordWords = words(keyword);
  return keywordWords.length > 0 && keywordWords.every((k) => titleWords.some((t) => t.startsWith(k)));
}

/**
 * Whether a canonical job satisfies every filter of the spec. Providers apply some filters
 * themselves (and some loosely), so every page is checked again here.
 */
export function matchesFilters(job: Job, filters: Filters, now: number): boolean {
  if (job.status === 'closed' && filters.include_closed !== true) return false;
  if (filters.title_or && !filters.title_or.some((k) => titleMatches(job.title, k))) return false;
  if (filters.title_not?.some((k) => titleMatches(job.title, k))) return false;
  if (filters.country_code_or && (!job.location.country_code || !filters.country_code_or.includes(job.location.country_code))) return false;
  if (filters.posted_within_days !== undefined && Date.parse(job.first_seen_at) < now - filters.posted_within_days * DAY_MS) return false;
  if (filters.seniority_or && (!job.seniority || !filters.seniority_or.includes(job.seniority))) return false;
  if (filters.employment_type_or && (!job.employment_type || !filters.employment_type_or.includes(job.employment_type))) return false;
  if (filters.remote === true && job.location.remote !== true) return false;
  if (filters.remote === false && job.location.remote !== false) return false;
  if (filters.salary_min_gte !== undefined) {
    const min = job.salary?.min;
    if (!job.salary || min === null || min === undefined || min * YEARLY[job.salary.period] < filters.salary_min_gte) return false;
  }
  if (filters.company_domain_or && (!job.company.domain || !filters.company_domain_or.includes(job.company.domain))) return false;
  if (filters.job_family_or && (!job.job_family || !filters.job_family_or.some((f) => f.toLowerCase() === job.job_family!.toLowerCase()))) return false;
  return true;
}

/** Distinct providers that saw a job (for `consensus`). */
export function sourceCount(job: Job): number {
  return new Set(job.sources.map((s) => s.provider)).size;
}
