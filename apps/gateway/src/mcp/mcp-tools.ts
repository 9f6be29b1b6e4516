/**
 * The MCP server's tools, as plain data: each names the HTTP API call it makes, its input and
 * output schemas (the contracts' own zod schemas) and what it costs. No Nest, no SDK, no I/O:
 * the server (mcp-server.ts) registers these with the SDK and runs each call through the
 * gateway's own HTTP pipeline (api-dispatcher.ts), so every rule of the HTTP API applies as is.
 *
 * Inputs are the contracts' schemas with one deliberate loosening: `filters` accepts unknown
 * keys here, so that a misspelt filter reaches the API and comes back as its
 * `400 unknown_filter` (with the name it probably meant and a request id) instead of an
 * anonymous schema error. Every other argument is checked by the SDK against the contracts'
 * bounds before any request is made (nothing is counted or charged for a malformed call).
 */
import { z } from 'zod';
import {
  AccountSchema,
  CompanyProfileSchema,
  CursorSchema,
  DomainSchema,
  DryRunEstimateSchema,
  EventListResponseSchema,
  EventTypeSchema,
  FiltersSchema,
  IdempotencyKeySchema,
  JobIdSchema,
  JobSchema,
  JobSearchRequestSchema,
  JobSearchResponseSchema,
  PAGE_LIMITS,
  WatchCreateRequestSchema,
  WatchIdSchema,
  WatchListResponseSchema,
  WatchSchema,
  WaterfallSchema,
} from '@jobs/contracts';
import { jobLine, JobSummaryPageSchema, salaryText, summarizePage } from './job-summary.js';

/** One request to the HTTP API, as the gateway's router sees it. */
export interface ApiCall {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path and query, from the public root (`/v1/...`). */
  url: string;
  body?: unknown;
  /** Sent as `Idempotency-Key` (POSTs that create or charge). */
  idempotencyKey?: string;
}

/** What the HTTP API answered. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  /** Parsed JSON, or undefined for an empty body. */
  body: unknown;
}

/** MCP tool annotations (hints for clients, never a security boundary). */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface McpTool<I extends AnyObject = AnyObject, O extends AnyObject = AnyObject> {
  name: string;
  title: string;
  /** The API endpoint it calls, for the docs. */
  endpoint: string;
  /** What it does in a few words, for the docs. */
  purpose: string;
  /** One line on what a call costs, for the docs. */
  cost: string;
  /** What a model reads: what the tool does, what it costs and when it is free. */
  description: string;
  input: I;
  output: O;
  hints: ToolHints;
  /**
   * The API request for these (validated) arguments. `newKey` makes an Idempotency-Key for a
   * POST whose caller gave none.
   */
  request(args: z.output<I>, newKey: () => string): ApiCall;
  /** The structured result of a 2xx answer (default: its body). */
  result?(answer: ApiAnswer, args: z.output<I>): unknown;
  /** One sentence a model reads first: what came back and what it cost. */
  summary(content: z.output<O>, answer: ApiAnswer): string;
}

function tool<I extends AnyObject, O extends AnyObject>(definition: McpTool<I, O>): McpTool {
  return definition as unknown as McpTool;
}

// ---- shared inputs ---------------------------------------------------------------------------

/** The contracts' Filters object, open to unknown keys so the API can name them (see above). */
const filtersInput = FiltersSchema.loose().describe(
  'Filters object: every filter optional, all combined with AND. An unknown name is refused with unknown_filter.',
);

/**
 * The same schema for estimate_search and create_watch, published there as a pointer to
 * search_jobs' (the list would otherwise carry the whole Filters schema three times); the
 * arguments are checked against it all the same.
 */
const filtersAsInSearch = FiltersSchema.loose().describe(
  'Filters object, the same as search_jobs takes (all optional, combined with AND).',
);

/**
 * list_events' published output: each event's envelope, its data in words. The union of the seven
 * event types with their jobs would be 4 KB of the tool list; the answer itself is checked
 * against the contract's EventListResponseSchema before it is returned.
 */
const EventOutlineSchema = z.object({
  id: z.string(),
  type: EventTypeSchema,
  created_at: z.string(),
  watch_id: z.string().nullable(),
  data: z
    .object({})
    .loose()
    .describe(
      'job.opened, job.updated: {job: a full Job}; job.reposted: ' +
        '{job: id, title, company, status, repost_count}; job.closed: ' +
        '{job: id, title, company, status, closed_reason}; ' +
        'company.hiring_started, company.hiring_stopped: {company, ' +
        'is_hiring}; search.completed: {search: id, status, ' +
        'jobs_found}.',
    ),
});
const EventPageOutlineSchema = z.object({ data: z.array(EventOutlineSchema), next_cursor: z.string().nullable() });

/**
 * Contract schemas published in full by one tool and described in words where another nests them (published-schema.ts).
 */
export const PUBLISHED_OUTLINES = {
  input: new Map<z.ZodType, string>([
    [filtersAsInSearch, 'Filters object, the same as search_jobs takes (all optional, combined with AND).'],
  ]),
  output: new Map<z.ZodType, string>([
    [JobSchema, 'A full Job, as get_job returns it.'],
    [FiltersSchema, 'A Filters object, as search_jobs takes it.'],
  ]),
};

const idempotencyKeyInput = IdempotencyKeySchema.optional().describe(
  'Optional. Sent as Idempotency-Key. After an internal_error, ' +
    'call again with the key the error names: the same call is ' +
    'then never run or charged twice. A new key is made when ' +
    'omitted.',
);

const { max_credits: _cap, ...waterfallWithoutCap } = WaterfallSchema.shape;

const syncLimit = JobSearchRequestSchema.shape.limit.describe('Jobs per page, 1 to 100 (default 25).');

const eventsLimit = z
  .number()
  .int()
  .min(PAGE_LIMITS.events.min)
  .max(PAGE_LIMITS.events.max)
  .optional()
  .describe(
    `Events per page, ${PAGE_LIMITS.events.min} to ${PAGE_LIMITS.events.max} (default ${PAGE_LIMITS.events.default}).`,
  );

/** `?a=1&b=2` from the defined entries, or '' when none. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const entries = Object.entries(params).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  if (entries.length === 0) return '';
  return `?${new URLSearchParams(entries.map(([name, value]): [string, string] => [name, String(value)])).toString()}`;
}

const header = (answer: ApiAnswer, name: string): string | undefined => answer.headers[name.toLowerCase()];

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;

/** "Charged 1 credit (99 left)." from the billable answers' headers. */
function chargeLine(answer: ApiAnswer): string {
  const charged = header(answer, 'X-Credits-Charged');
  const remaining = header(answer, 'X-Credits-Remaining');
  if (charged === undefined) return '';
  return ` Charged ${credits(Number(charged))}${remaining === undefined ? '' : ` (${remaining} left)`}.`;
}

/** "evt_1 job.opened job_1 Backend Engineer (Acme)" and the like: what the event is about. */
function eventLine(event: z.output<typeof EventOutlineSchema>): string {
  const data = event.data as {
    job?: { id: string; title: string; company: { name: string } };
    company?: { name: string };
    search?: { id: string; status: string };
  };
  const about = data.job
    ? `${data.job.id} ${data.job.title} (${data.job.company.name})`
    : data.company
      ? data.company.name
      : data.search
        ? `${data.search.id} ${data.search.status}`
        : '';
  return `${event.id} ${event.type} ${about}`.trim();
}

// ---- the tools -------------------------------------------------------------------------------

export const WatchDeletedSchema = z.strictObject({ id: WatchIdSchema, deleted: z.literal(true) });

export const MCP_TOOLS: readonly McpTool[] = [
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

  tool({
    name: 'create_watch',
    endpoint: 'POST /v1/watches',
    purpose: 'A company or saved-search watch sending webhook events',
    title: 'Create a watch (free; job.opened events cost)',
    cost:
      'free to create; each job.opened event it delivers costs 1 ' +
      'credit unless the job was already paid for (other events ' +
      'free)',
    description:
      'Creates a watch that sends signed webhook events to ' +
      '`webhook_url`: type "company" (needs `domain`) follows one ' +
      'company, type "search" (needs `filters`) follows a saved ' +
      'search. Creating it is FREE; afterwards each job.opened ' +
      'event it delivers COSTS 1 CREDIT unless the job was already ' +
      'paid for, and every other event type is free. Needs the pro ' +
      'plan or above (plan_required otherwise). Events also appear ' +
      'in list_events.',
    input: z.strictObject({
      type: WatchCreateRequestSchema.shape.type,
      domain: WatchCreateRequestSchema.shape.domain.describe('For type company: the company domain.'),
      filters: filtersAsInSearch
        .optional()
        .describe('For type search (required): the Filters object to follow, the same as search_jobs takes.'),
      webhook_url: WatchCreateRequestSchema.shape.webhook_url.describe('http(s) URL that receives the events.'),
      events: WatchCreateRequestSchema.shape.events.describe(
        'Event types to send; all job and company events when omitted.',
      ),
      idempotency_key: idempotencyKeyInput,
    }),
    output: WatchSchema,
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    request: ({ idempotency_key, ...watch }, newKey) => ({
      method: 'POST',
      url: '/v1/watches',
      body: watch,
      idempotencyKey: idempotency_key ?? newKey(),
    }),
    summary: (watch) => `Watch ${watch.id} (${watch.type}) is ${watch.status}; events go to ${watch.webhook_url}.`,
  }),

  tool({
    name: 'list_watches',
    endpoint: 'GET /v1/watches',
    purpose: "The account's watches, paged",
    title: 'List watches (free)',
    cost: 'free',
    description:
      "Lists the account's watches, a server-sized page at a time (pass next_cursor as cursor for the next). FREE.",
    input: z.strictObject({ cursor: CursorSchema.optional().describe('next_cursor of the previous page.') }),
    output: WatchListResponseSchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    request: ({ cursor }) => ({ method: 'GET', url: `/v1/watches${queryString({ cursor })}` }),
    summary: ({ data, next_cursor }) =>
      [
        `${data.length} watches.${next_cursor ? ` More pages: pass cursor "${next_cursor}".` : ''}`,
        ...data.map(
          (watch) =>
            `${watch.id}: ${watch.type} ` +
            `${watch.type === 'company' ? watch.domain : 'search'}, ` +
            `${watch.status}, to ${watch.webhook_url}`,
        ),
      ].join('\n'),
  }),

  tool({
    name: 'delete_watch',
    endpoint: 'DELETE /v1/watches/{id}',
    purpose: 'Deletes a watch',
    title: 'Delete a watch (free)',
    cost: 'free',
    description: 'Deletes a watch by id (wat_...): it sends no more events. FREE. An unknown id is not_found.',
    input: z.strictObject({ watch_id: WatchIdSchema.describe('The watch id, wat_...') }),
    output: WatchDeletedSchema,
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    request: ({ watch_id }) => ({ method: 'DELETE', url: `/v1/watches/${encodeURIComponent(watch_id)}` }),
    result: (_answer, { watch_id }) => ({ id: watch_id, deleted: true }),
    summary: ({ id }) => `Watch ${id} deleted.`,
  }),

  tool({
    name: 'list_events',
    endpoint: 'GET /v1/events',
    purpose: 'The event feed, oldest first, from since',
    title: 'Read the event feed (free)',
    cost: 'free',
    description:
      "Reads the account's event feed, oldest first: job.opened, " +
      'job.updated, job.closed, job.reposted, ' +
      'company.hiring_started, company.hiring_stopped and ' +
      'search.completed. FREE (a job.opened event was charged when ' +
      'it was delivered, never when read). Omit `since` to start ' +
      'from the oldest retained event. To read only what is new, ' +
      'pass the last next_cursor you got as `since`: a page with ' +
      'events always carries the cursor after its last event; an ' +
      'empty page answers next_cursor null (nothing new: keep the ' +
      'cursor you sent).',
    input: z.strictObject({
      since: CursorSchema.optional().describe('next_cursor of a previous call; omit to start from the oldest event.'),
      limit: eventsLimit,
    }),
    output: EventPageOutlineSchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    request: ({ since, limit }) => ({ method: 'GET', url: `/v1/events${queryString({ since, limit })}` }),
    result: (answer) => EventListResponseSchema.parse(answer.body),
    summary: ({ data, next_cursor }) =>
      data.length === 0
        ? 'No events (nothing new since the cursor sent).'
        : [
            `${data.length} events, oldest first. Next time pass since "${next_cursor ?? '(the cursor you sent)'}".`,
            ...data.map(eventLine),
          ].join('\n'),
  }),
];

/** The tool table of the MCP guide, libs/docs-site/guides/mcp.md (kept equal by mcp-docs.spec.ts). */
export function renderToolTable(): string {
  const rows = MCP_TOOLS.map((tool) => `| \`${tool.name}\` | ${tool.purpose} | \`${tool.endpoint}\` | ${tool.cost} |`);
  return ['| Tool | What it does | API call | Cost |', '|---|---|---|---|', ...rows].join('\n');
}
