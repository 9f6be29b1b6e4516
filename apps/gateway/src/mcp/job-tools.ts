/**
 * The tools on job data and the account: estimate or run a search, read a job or a company profile
 * (every call that can cost credits), and read the balance.
 */
import { z } from 'zod';
import {
  AccountSchema,
  CompanyProfileSchema,
  CursorSchema,
  DomainSchema,
  DryRunEstimateSchema,
  JobIdSchema,
  JobSchema,
  JobSearchRequestSchema,
  JobSearchResponseSchema,
  WaterfallSchema,
} from '@jobs/contracts';
import { jobLine, JobSummaryPageSchema, salaryText, summarizePage } from './job-summary.js';
import { tool, type ApiAnswer, type McpTool } from './mcp-tool.js';
import { filtersAsInSearch, filtersInput, idempotencyKeyInput } from './tool-inputs.js';

const { max_credits: _cap, ...waterfallWithoutCap } = WaterfallSchema.shape;

const syncLimit = JobSearchRequestSchema.shape.limit.describe('Jobs per page, 1 to 100 (default 25).');

const header = (answer: ApiAnswer, name: string): string | undefined => answer.headers[name.toLowerCase()];

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/** "Charged 1 credit (99 left)." from the billable answers' headers. */
function chargeLine(answer: ApiAnswer): string {
  const charged = header(answer, 'X-Credits-Charged');
  const remaining = header(answer, 'X-Credits-Remaining');
  if (charged === undefined) return '';
  return ` Charged ${credits(Number(charged))}${remaining === undefined ? '' : ` (${remaining} left)`}.`;
}

export const JOB_TOOLS: readonly McpTool[] = [
  tool({
    name: 'estimate_search',
    endpoint: 'POST /v1/jobs/search` with `dry_run: true',
    purpose: 'Estimates a search: matching jobs, providers, credits for one page',
    title: 'Estimate a job search (free)',
    cost: 'free (a dry run: nothing is charged)',
    description:
      'Estimates a job search without running it: how many unique ' +
      'jobs match across every page, which providers would be ' +
      'asked, and the range of credits the same search_jobs call ' +
      'would charge for one page of `limit` jobs (jobs the account ' +
      'already paid for and `waterfall.max_credits` taken into ' +
      'account). FREE: never charges credits. Call it before ' +
      'search_jobs to choose `max_credits` and `limit`; a credits ' +
      'range of 0 to 0 means the filters match nothing.',
    input: z.strictObject({
      filters: filtersAsInSearch.optional(),
      waterfall: WaterfallSchema.optional().describe(
        'Waterfall object: strategy, providers, max_credits, timeout_ms, min_sources.',
      ),
      limit: syncLimit,
    }),
    output: DryRunEstimateSchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    request: (args) => ({ method: 'POST', url: '/v1/jobs/search', body: { ...args, dry_run: true } }),
    summary: ({ estimate }) =>
      `Estimate (free): ` +
      `${estimate.expected_unique_jobs_range.min}-${estimate.expected_unique_jobs_range.max} ` +
      `unique jobs match; one page would cost ` +
      `${estimate.credits_range.min}-${estimate.credits_range.max} ` +
      `credits; providers: ` +
      `${estimate.providers_planned.join(', ')}.`,
  }),

  tool({
    name: 'search_jobs',
    endpoint: 'POST /v1/jobs/search',
    purpose: 'One page of job summaries with metadata; next pages with cursor',
    title: 'Search jobs (costs credits)',
    cost:
      '1 credit per new unique job returned, never more than ' +
      '`max_credits`; 0 for jobs already paid for, an empty result ' +
      'or a test key',
    description:
      'Searches jobs across the own index and the partner providers ' +
      'of the plan (the waterfall) and returns one page of ' +
      'canonical, de-duplicated jobs as summaries (id, title, ' +
      'company, location, remote, salary, posted date, number of ' +
      'sources, url) with metadata (credits_charged, ' +
      'credits_remaining, providers tried, hit and failed); get_job ' +
      'gives a job in full, free for a job this search returned. ' +
      'COSTS CREDITS: 1 credit per unique job on the page that the ' +
      'account never paid for; jobs paid for earlier, an empty ' +
      'result and any call with a test key (svc_test_) are free. ' +
      '`max_credits` is required and is a hard cap: results stop at ' +
      'the cap, so the call never charges more. Run estimate_search ' +
      'first (free) to see the likely cost. For the next page send ' +
      'the same filters, waterfall and limit with `cursor` = the ' +
      'previous next_cursor. To page within a total budget, give ' +
      'each page what is left of it as `max_credits` (budget minus ' +
      'the credits_charged of the pages before) and stop when ' +
      'nothing is left or next_cursor is null.',
    input: z.strictObject({
      filters: filtersInput.optional(),
      waterfall: z
        .strictObject(waterfallWithoutCap)
        .optional()
        .describe('Waterfall object without max_credits (given apart): strategy, providers, timeout_ms, min_sources.'),
      max_credits: z
        .number()
        .int()
        .min(0)
        .describe(
          'Required: the most credits this call may charge ' +
            '(waterfall.max_credits, a hard cap). 0 returns only jobs ' +
            'already paid for.',
        ),
      limit: syncLimit,
      cursor: CursorSchema.optional().describe('next_cursor of the previous page.'),
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
      [
        `${data.length} jobs (${metadata.status}); charged ` +
          `${credits(metadata.credits_charged)}, ` +
          `${metadata.jobs_already_paid} already paid for (free), ` +
          `${metadata.credits_remaining} credits ` +
          `left.${next_cursor ? ` More pages: pass cursor "${next_cursor}".` : ' Last page.'}`,
        ...data.map(jobLine),
      ].join('\n'),
  }),

  tool({
    name: 'get_job',
    endpoint: 'GET /v1/jobs/{id}',
    purpose: 'One job by id',
    title: 'Read a job (1 credit unless already paid)',
    cost: '1 credit, free if the account already paid for this job (or with a test key)',
    description:
      'Reads one canonical job by id (job_...): title, company, ' +
      'location, salary, description, apply_url, status, p_real and ' +
      'the sources that saw it. COSTS 1 CREDIT unless the account ' +
      'already paid for this job (for example because a search ' +
      'returned it): then it is free, as with a test key.',
    input: z.strictObject({ job_id: JobIdSchema.describe('The job id, job_...') }),
    output: JobSchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    request: ({ job_id }) => ({ method: 'GET', url: `/v1/jobs/${encodeURIComponent(job_id)}` }),
    summary: (job, answer) => {
      const salary = salaryText(job.salary);
      const place = [job.location.city, job.location.country_code].filter(Boolean).join(', ');
      const facts = [
        place,
        job.location.remote ? 'remote' : '',
        salary ?? '',
        job.apply_url ? `apply: ${job.apply_url}` : '',
      ].filter(Boolean);
      return (
        `${job.title} at ${job.company.name} ` +
        `(${job.status}).${facts.length > 0 ? ` ${facts.join('; ')}.` : ''}${chargeLine(answer)}`
      );
    },
  }),

  tool({
    name: 'get_company_profile',
    endpoint: 'GET /v1/companies/{domain}',
    purpose: "A company's hiring profile",
    title: 'Read a company hiring profile (1 credit per call)',
    cost: '1 credit per call, every time (no already-paid rule); free with a test key',
    description:
      "Reads a company's hiring profile by its web domain " +
      '(example.com, no scheme or path): open_jobs_count, is_hiring ' +
      '(value, confidence, basis; null means unknown, never false), ' +
      'hiring_pulse, top job families and per-source counts. COSTS ' +
      '1 CREDIT PER CALL, every time, even for a company read ' +
      'before; free with a test key.',
    input: z.strictObject({ domain: DomainSchema.describe('Company domain, e.g. example.com') }),
    output: CompanyProfileSchema,
    hints: { readOnlyHint: true, idempotentHint: false, openWorldHint: true },
    request: ({ domain }) => ({ method: 'GET', url: `/v1/companies/${encodeURIComponent(domain)}` }),
    summary: (profile, answer) =>
      `${profile.company.name}: ${profile.open_jobs_count} open ` +
      `jobs, is_hiring ` +
      `${profile.is_hiring.value === null ? 'unknown' : String(profile.is_hiring.value)}.${chargeLine(answer)}`,
  }),

  tool({
    name: 'get_account',
    endpoint: 'GET /v1/account',
    purpose: 'Plan, credits remaining, providers, rate limit',
    title: 'Read the account and its credits (free)',
    cost: 'free',
    description:
      "Reads the API key's account: plan, credits_remaining, " +
      'credits_reset_at, the providers enabled on the plan and the ' +
      'rate limit. FREE. Use it to check the balance before ' +
      'spending credits.',
    input: z.strictObject({}),
    output: AccountSchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    request: () => ({ method: 'GET', url: '/v1/account' }),
    summary: (account) =>
      `Plan ${account.plan}, ${credits(account.credits_remaining)} remaining (reset at ${account.credits_reset_at}).`,
  }),
];
