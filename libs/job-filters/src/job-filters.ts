/**
 * The Filters object of interface.md, one meaning everywhere: the live search re-checks every
 * page with it, the sandbox applies it to its fixed jobs, and the own index's SQL is built to
 * return a superset of what it keeps.
 *
 * - `title_or` / `title_not`: a keyword matches when each of its words starts a word of the
 *   title, case- and accent-insensitively ("eng" finds "Engineer", "software eng" finds
 *   "Senior Software Engineer", "gineer" finds nothing).
 * - A job whose filtered field is null (unknown) never matches a filter on that field.
 * - `salary_min_gte` compares the yearly equivalent of `salary.min` in the job's own currency:
 *   a month counts 12 times, an hour 2080 times (40 hours x 52 weeks).
 * - `posted_within_days` counts back from `first_seen_at` to `now`.
 * - `job_family_or` compares case-insensitively; closed jobs only with `include_closed: true`.
 */
import type { Filters, Job, Salary } from '@jobs/contracts';

const DAY_MS = 86_400_000;
export const PERIODS_PER_YEAR: Readonly<Record<Salary['period'], number>> = { year: 1, month: 12, hour: 2080 };

/** The words of a title or keyword: lower case, accents removed, split on anything but letters, digits, + and #. */
export function titleWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9+#]+/)
    .filter(Boolean);
}

/**
 * A title as the own index stores it for keyword search: its words between single spaces,
 * with a leading space, so "each keyword word starts a title word" is `LIKE '% word%'`.
 */
export function titleSearchText(title: string): string {
  return ` ${titleWords(title).join(' ')} `;
}

/** A keyword matches a title when each of its words starts a word of the title. */
export function titleMatches(title: string, keyword: string): boolean {
  const words = titleWords(title);
  const keywordWords = titleWords(keyword);
  return keywordWords.length > 0 && keywordWords.every((k) => words.some((t) => t.startsWith(k)));
}

/** `salary.min` as a yearly amount in the job's currency; null when unknown. */
export function yearlyMinimum(salary: Salary | null): number | null {
  if (!salary || salary.min === null) return null;
  return salary.min * PERIODS_PER_YEAR[salary.period];
}

const oneOf = <T>(value: T | null, allowed: readonly T[] | undefined) =>
  allowed === undefined || (value !== null && allowed.includes(value));

/** Whether a job passes every filter that is set; `now` is the moment `posted_within_days` counts back from. */
export function matchesFilters(job: Job, filters: Filters, now: number): boolean {
  if (job.status === 'closed' && filters.include_closed !== true) return false;
  if (filters.title_or && !filters.title_or.some((k) => titleMatches(job.title, k))) return false;
  if (filters.title_not?.some((k) => titleMatches(job.title, k))) return false;
  if (!oneOf(job.location.country_code, filters.country_code_or)) return false;
  if (
    filters.posted_within_days !== undefined &&
    Date.parse(job.first_seen_at) < now - filters.posted_within_days * DAY_MS
  )
    return false;
  if (!oneOf(job.seniority, filters.seniority_or)) return false;
  if (!oneOf(job.employment_type, filters.employment_type_or)) return false;
  if (typeof filters.remote === 'boolean' && job.location.remote !== filters.remote) return false;
  if (filters.salary_min_gte !== undefined) {
    const yearly = yearlyMinimum(job.salary);
    if (yearly === null || yearly < filters.salary_min_gte) return false;
  }
  if (!oneOf(job.company.domain, filters.company_domain_or)) return false;
  if (filters.job_family_or) {
    const families = filters.job_family_or.map((family) => family.toLowerCase());
    if (job.job_family === null || !families.includes(job.job_family.toLowerCase())) return false;
  }
  return true;
}

/**
 * The part of a filter every partner applies itself (the adapters send it as query parameters):
 * title keywords, companies, remote, closed openings and one country. A partner's reported total
 * counts the postings matching this part; the rest (several countries, seniority, salary,
 * `posted_within_days`, excluded words...) is checked only once their records are fetched.
 */
export function partnerAppliedFilters(filters: Filters): Filters {
  const applied: Filters = {};
  if (filters.title_or) applied.title_or = filters.title_or;
  if (filters.company_domain_or) applied.company_domain_or = filters.company_domain_or;
  if (typeof filters.remote === 'boolean') applied.remote = filters.remote;
  if (filters.include_closed !== undefined) applied.include_closed = filters.include_closed;
  if (filters.country_code_or?.length === 1) applied.country_code_or = filters.country_code_or;
  return applied;
}

/** Whether partners apply every filter that is set: their totals then count exactly what the filter keeps. */
export function partnersApplyAll(filters: Filters): boolean {
  const applied = partnerAppliedFilters(filters);
  return Object.entries(filters).every(
    ([name, value]) => value === undefined || value === null || (applied as Record<string, unknown>)[name] === value,
  );
}
