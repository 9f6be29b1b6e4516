/**
 * What `search_jobs` returns for each job: a summary a model can read, compare and act on, with
 * the full Job one `get_job` away (free for a job the search returned: the account paid for it,
 * or the key is a test key). A full Job carries its description, every source, every timestamp
 * and the license; a summary leaves those out, so a page of ten stays small in a model's context.
 *
 * The fields chosen, and why:
 * - `id`: the handle for `get_job`, the ledger and watches.
 * - `title`, `company`, `company_domain`: what the job is and whose; the domain is the argument
 *   of `get_company_profile` and of a company watch.
 * - `location` as one readable string and `remote` apart: `remote` is a filter of its own.
 * - `salary` as one readable string with its period and, when a source estimated it, "inferred":
 *   a model compares "60,000-80,000 EUR per year" directly; the numbers are in the full Job.
 * - `posted_on`: the employer's posting date (null when no source knew it).
 * - `providers`: how many sources saw the job; more sources, more corroboration.
 * - `status`: searches with `include_closed` return closed jobs too.
 * - `url`: where to apply (the job's `apply_url`, else the first source's own page).
 * Left to `get_job`: description, employment type, seniority, job family, every timestamp,
 * `p_real`, repost count, the sources one by one and the license.
 */
import { z } from 'zod';
import { JobIdSchema, SearchMetadataSchema, type Job, type JobSearchResponse } from '@jobs/contracts';

export const JobSummarySchema = z.strictObject({
  id: JobIdSchema,
  title: z.string(),
  company: z.string(),
  company_domain: z.string().nullable(),
  location: z.string().nullable().describe('City, region, country code as known; null when unknown.'),
  remote: z.boolean().nullable(),
  salary: z
    .string()
    .nullable()
    .describe('For example "60,000-80,000 EUR per year"; "(inferred)" when a source estimated it; null when unknown.'),
  posted_on: z.string().nullable().describe('YYYY-MM-DD the employer posted it; null when unknown.'),
  providers: z.number().int().describe('How many sources saw the job.'),
  status: z.enum(['open', 'closed']),
  url: z.string().nullable().describe('Where to apply: apply_url, else the first source page.'),
});
export type JobSummary = z.infer<typeof JobSummarySchema>;

/** `search_jobs`' structured result: the API's page with each job summarised. */
export const JobSummaryPageSchema = z.strictObject({
  data: z
    .array(JobSummarySchema)
    .describe('Job summaries; the full job of an id through get_job (free for these jobs).'),
  next_cursor: z.string().nullable(),
  metadata: SearchMetadataSchema,
});
export type JobSummaryPage = z.infer<typeof JobSummaryPageSchema>;

const amount = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** "60,000-80,000 EUR per year", "from 20 GBP per hour (inferred)"; null without a figure. */
export function salaryText(salary: Job['salary']): string | null {
  if (!salary || (salary.min === null && salary.max === null)) return null;
  const { min, max } = salary;
  const range =
    min !== null && max !== null
      ? min === max
        ? amount(min)
        : `${amount(min)}-${amount(max)}`
      : min !== null
        ? `from ${amount(min)}`
        : `up to ${amount(max!)}`;
  return `${range} ${salary.currency} per ${salary.period}${salary.origin === 'inferred' ? ' (inferred)' : ''}`;
}

export function summarizeJob(job: Job): JobSummary {
  const place = [job.location.city, job.location.region, job.location.country_code].filter(
    (part): part is string => !!part,
  );
  return {
    id: job.id,
    title: job.title,
    company: job.company.name,
    company_domain: job.company.domain,
    location: place.length > 0 ? place.join(', ') : null,
    remote: job.location.remote,
    salary: salaryText(job.salary),
    posted_on: job.posted_at?.slice(0, 10) ?? null,
    providers: job.sources.length,
    status: job.status,
    url: job.apply_url ?? job.sources.find((source) => source.url !== null)?.url ?? null,
  };
}

export function summarizePage(page: JobSearchResponse): JobSummaryPage {
  return { data: page.data.map(summarizeJob), next_cursor: page.next_cursor, metadata: page.metadata };
}
