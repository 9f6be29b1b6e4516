/**
 * The Filters object of interface.md applied to the sandbox's fixed jobs, so a developer can see
 * each filter work before going live.
 *
 * Choices (README material):
 * - `title_or` / `title_not` match case-insensitive substrings of the title.
 * - `job_family_or` compares case-insensitively; a job whose `job_family`, `seniority` or
 *   `employment_type` is null (unknown) never matches a filter on that field.
 * - `salary_min_gte` compares the yearly equivalent of `salary.min` in the job's own currency:
 *   a month counts 12 times, an hour 2080 times (40 hours x 52 weeks). Jobs without a salary or
 *   without a `min` are excluded when it is set.
 * - `posted_within_days` counts back from `first_seen_at` to the sandbox's fixed clock.
 */
import type { Filters, Job, Salary } from '@jobs/contracts';

const DAY_MS = 86_400_000;
const PERIODS_PER_YEAR: Record<Salary['period'], number> = { year: 1, month: 12, hour: 2080 };

/** `salary.min` as a yearly amount in the job's currency; null when unknown. */
export function yearlyMinimum(salary: Salary | null): number | null {
  if (!salary || salary.min === null) return null;
  return salary.min * PERIODS_PER_YEAR[salary.period];
}

const includesAny = (text: string, words: readonly string[]) => {
  const lower = text.toLowerCase();
  return words.some((word) => lower.includes(word.toLowerCase()));
};

const oneOf = <T>(value: T | null, allowed: readonly T[] | undefined) => allowed === undefined || (value !== null && allowed.includes(value));

/** True when `job` passes every filter that is set; `now` is the moment `posted_within_days` counts back from. */
export function matchesFilters(job: Job, filters: Filters, now: number): boolean {
  if (job.status === 'closed' && filters.include_closed !== true) return false;
  if (filters.title_or && !includesAny(job.title, filters.title_or)) return false;
  if (filters.title_not && includesAny(job.title, filters.title_not)) return false;
  if (!oneOf(job.location.country_code, filters.country_code_or)) return false;
  if (filters.posted_within_days !== undefined && Date.parse(job.first_seen_at) < now - filters.posted_within_days * DAY_MS) return false;
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
