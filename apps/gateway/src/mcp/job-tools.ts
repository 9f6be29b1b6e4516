/** The tools on job data: estimate or run a search, read a job or a company profile (every call that can charge). */
import { z } from 'zod';
import {
  CompanyProfileSchema,
  DomainSchema,
  DryRunEstimateSchema,
  JobIdSchema,
  JobSchema,
  JobSearchRequestSchema,
  JobSearchResponseSchema,
} from '@jobs/contracts';
import { JobSummaryPageSchema, salaryText, summarizePage } from './job-summary.js';
import { tool, type McpTool } from './mcp-tool.js';
import {
  cursorInput,
  filtersAsInSearch,
  filtersInput,
  idempotencyKeyInput,
  maxCreditsInput,
  waterfallInput,
  waterfallWithCap,
} from './tool-inputs.js';
import { chargeLine, count, credits, idList, pageEnd } from './tool-text.js';

const syncLimit = JobSearchRequestSchema.shape.limit.describe('Jobs per page.');

export const JOB_TOOLS: readonly McpTool[] = [
  tool({
    name: 'estimate_search',
    endpoint: 'POST /v1/jobs/search` with `dry_run: true',
    purpose: 'Estimates a search: matching jobs, providers, credits for one page',
    title: 'Estimate a job search (free)',
    cost: 'free (a dry run)',
    description:
      'FREE dry run of search_jobs: unique jobs matching over all pages, providers asked, credits one ' +
      'page of `limit` would cost (jobs already paid and max_credits counted). 0 to 0: nothing matches.',
    input: z.strictObject({
      filters: filtersAsInSearch.optional(),
      waterfall: waterfallWithCap.optional(),
      limit: syncLimit,
    }),
    output: DryRunEstimateSchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    request: (args) => ({ method: 'POST', url: '/v1/jobs/search', body: { ...args, dry_run: true } }),
    summary: ({ estimate }) =>
      `Estimate (free): ${estimate.expected_unique_jobs_range.min}-${estimate.expected_unique_jobs_range.max} ` +
      `unique jobs match; one page would cost ${estimate.credits_range.min}-${estimate.credits_range.max} ` +
      `credits; providers: ${estimate.providers_planned.join(', ')}.`,
  }),

  tool({
    name: 'search_jobs',
    endpoint: 'POST /v1/jobs/search',
    purpose: 'One page of job summaries with metadata; next pages with cursor',
    title: 'Search jobs (costs credits)',
    cost:
      '1 credit per new unique job returned, at most `max_credits`; ' +
      '0 for jobs already paid, an empty page or a test key',
    description:
      'A page of de-duplicated jobs (own index and plan providers) as summaries, with metadata. COSTS ' +
      '1 CREDIT per job the account never paid for, at most max_credits (results stop there); jobs ' +
      'already paid, empty pages and test keys are free. get_job: a job in full, free for these. Next ' +
      'page: same arguments plus cursor; within a total budget, give each page what is left of it as max_credits.',
    input: z.strictObject({
      filters: filtersInput.optional(),
      waterfall: waterfallInput.optional(),
      max_credits: maxCreditsInput('this page'),
      limit: syncLimit,
      cursor: cursorInput,
      idempotency_key: idempotencyKeyInput,
    }),
    output: JobSummaryPageSchema,
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    request: ({ max_credits, idempotency_key, waterfall, ...rest }, newKey) => ({
      method: 'POST',
      url: '/v1/jobs/search',
      body: { ...rest, waterfall: { ...waterfall, max_credits } },
      idempotencyKey: idempotency_key ?? newKey(),
    }),
    result: (answer) => summarizePage(JobSearchResponseSchema.parse(answer.body)),
    summary: ({ data, next_cursor, metadata }) =>
      `${count(data.length, 'job')} (${metadata.status}); charged ${credits(metadata.credits_charged)}, ` +
      `${metadata.jobs_already_paid} already paid (free), ${metadata.credits_remaining} credits left.` +
      `${pageEnd(next_cursor)}${idList(data.map((job) => job.id))}`,
  }),

  tool({
    name: 'get_job',
    endpoint: 'GET /v1/jobs/{id}',
    purpose: 'One job in full',
    title: 'Read a job (1 credit unless already paid)',
    cost: '1 credit, free if the account already paid for this job (or with a test key)',
    description:
      'A job in full: description, apply_url, status, p_real, every source. COSTS 1 CREDIT unless the ' +
      'account already paid for it (any search that returned it did).',
    input: z.strictObject({ job_id: JobIdSchema.describe('job_...') }),
    output: JobSchema,
    // Not read-only: it spends a credit, and clients auto-approve read-only tools.
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    request: ({ job_id }) => ({ method: 'GET', url: `/v1/jobs/${encodeURIComponent(job_id)}` }),
    summary: (job, answer) => {
      const place = [job.location.city, job.location.country_code].filter(Boolean).join(', ');
      const facts = [
        place,
        job.location.remote ? 'remote' : '',
        salaryText(job.salary) ?? '',
        job.apply_url ? `apply: ${job.apply_url}` : '',
      ].filter(Boolean);
      return (
        `${job.title} at ${job.company.name} (${job.status}).` +
        `${facts.length > 0 ? ` ${facts.join('; ')}.` : ''}${chargeLine(answer)}`
      );
    },
  }),

  tool({
    name: 'get_company_profile',
    endpoint: 'GET /v1/companies/{domain}',
    purpose: "A company's hiring profile",
    title: 'Company profile (1 credit a call)',
    cost: '1 credit per call, every time (no already-paid rule); free with a test key',
    description:
      "A company's open jobs, is_hiring (null: unknown, never false), hiring_pulse, top job families " +
      'and counts per source. COSTS 1 CREDIT PER CALL, every time.',
    input: z.strictObject({ domain: DomainSchema.describe('Web domain, e.g. example.com (no scheme or path).') }),
    output: CompanyProfileSchema,
    // Not read-only: every call spends a credit, and clients auto-approve read-only tools.
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    request: ({ domain }) => ({ method: 'GET', url: `/v1/companies/${encodeURIComponent(domain)}` }),
    summary: (profile, answer) =>
      `${profile.company.name}: ${profile.open_jobs_count} open jobs, is_hiring ` +
      `${profile.is_hiring.value === null ? 'unknown' : String(profile.is_hiring.value)}.${chargeLine(answer)}`,
  }),
];
