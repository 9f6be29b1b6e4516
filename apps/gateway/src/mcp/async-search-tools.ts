/**
 * The tools for async searches: start one with a budget, then poll it and page through what it
 * collected. Its jobs are charged as they are collected, never when read.
 */
import { z } from 'zod';
import {
  AsyncSearchCreateRequestSchema,
  AsyncSearchSchema,
  PAGE_LIMITS,
  SearchIdSchema,
  UrlSchema,
  type AsyncSearch,
} from '@jobs/contracts';
import { summarizeJob } from './job-summary.js';
import { tool, queryString, type McpTool } from './mcp-tool.js';
import {
  cursorInput,
  filtersAsInSearch,
  idempotencyKeyInput,
  jobSummaryAsInSearch,
  maxCreditsInput,
  metadataAsInSearch,
  waterfallAsInSearch,
} from './tool-inputs.js';
import { count, credits, idList, pageEnd } from './tool-text.js';

/**
 * Jobs per page when the call does not say. The API's default page is 100 full jobs; here a page
 * is summaries, and 25 of them keep an answer near the size of a search page.
 */
export const ASYNC_PAGE_DEFAULT = 25;

/** The async search as the tools return it: the API's object with its page of jobs summarised. */
export const AsyncSearchSummarySchema = z.strictObject({
  ...AsyncSearchSchema.shape,
  data: z.array(jobSummaryAsInSearch).describe('Collected jobs, once completed or partial; full job: get_job (free).'),
  metadata: metadataAsInSearch.nullable(),
});
export type AsyncSearchSummary = z.infer<typeof AsyncSearchSummarySchema>;

export function summarizeAsyncSearch(search: AsyncSearch): AsyncSearchSummary {
  return { ...search, data: search.data.map(summarizeJob) };
}

/** What a model should do next with a search in this state. */
function statusLine(search: AsyncSearchSummary): string {
  const head = `Async search ${search.id} is ${search.status}, ${count(search.jobs_found, 'job')} found`;
  switch (search.status) {
    case 'queued':
    case 'running':
      return `${head} so far. Poll get_async_search in a few seconds.`;
    case 'on_hold':
      return `${head}; the account ran out of credits: collection resumes after a top-up.`;
    case 'failed':
      return `${head}: every provider failed.`;
    default: {
      const charged = search.metadata ? `; charged ${credits(search.metadata.credits_charged)} in all` : '';
      return `${head}${charged}. This page: ${count(search.data.length, 'job')}.${pageEnd(search.next_cursor)}`;
    }
  }
}

const summary = (search: AsyncSearchSummary): string =>
  `${statusLine(search)}${idList(search.data.map((job) => job.id))}`;

const result = (answer: { body: unknown }) => summarizeAsyncSearch(AsyncSearchSchema.parse(answer.body));

export const ASYNC_SEARCH_TOOLS: readonly McpTool[] = [
  tool({
    name: 'start_async_search',
    endpoint: 'POST /v1/searches',
    purpose: 'Starts a search of up to 10,000 jobs within a budget',
    title: 'Start an async search (costs credits)',
    cost: '1 credit per new unique job collected, at most `max_credits` for the whole search; 0 with a test key',
    description:
      'Collects up to `limit` jobs in the background; poll get_async_search. COSTS 1 CREDIT per job ' +
      'the account never paid for, as collected, at most max_credits for the whole search (it ' +
      'completes there). Size it with estimate_search. Out of credits: on_hold until a top-up.',
    input: z.strictObject({
      filters: filtersAsInSearch,
      waterfall: waterfallAsInSearch.optional(),
      max_credits: maxCreditsInput('the whole search'),
      limit: AsyncSearchCreateRequestSchema.shape.limit.describe('Jobs to collect.'),
      webhook_url: UrlSchema.optional().describe('Receives the signed search.completed event.'),
      idempotency_key: idempotencyKeyInput,
    }),
    output: AsyncSearchSummarySchema,
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    request: ({ max_credits, idempotency_key, waterfall, ...rest }, newKey) => ({
      method: 'POST',
      url: '/v1/searches',
      body: { ...rest, waterfall: { ...waterfall, max_credits } },
      idempotencyKey: idempotency_key ?? newKey(),
    }),
    result,
    summary,
  }),

  tool({
    name: 'get_async_search',
    endpoint: 'GET /v1/searches/{id}',
    purpose: "An async search's status and, once done, its jobs page by page",
    title: 'Poll an async search (free)',
    cost: 'free (its jobs were charged as collected)',
    description:
      "FREE. An async search's status and jobs_found; once completed or partial, a page of its jobs " +
      'as summaries (next page: add cursor) and metadata. queued/running: poll again; on_hold: out of credits.',
    input: z.strictObject({
      search_id: SearchIdSchema.describe('srch_...'),
      cursor: cursorInput,
      limit: z
        .number()
        .int()
        .min(PAGE_LIMITS.asyncSearchRead.min)
        .max(PAGE_LIMITS.asyncSearchRead.max)
        .default(ASYNC_PAGE_DEFAULT)
        .describe('Jobs per page.'),
    }),
    output: AsyncSearchSummarySchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    request: ({ search_id, cursor, limit }) => ({
      method: 'GET',
      url: `/v1/searches/${encodeURIComponent(search_id)}${queryString({ cursor, limit })}`,
    }),
    result,
    summary,
  }),
];
