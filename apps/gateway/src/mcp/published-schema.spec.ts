import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { z } from 'zod';
import {
  AccountSchema,
  CompanyProfileSchema,
  DryRunEstimateSchema,
  EventListResponseSchema,
  ProviderListResponseSchema,
  examples,
  WatchSchema,
} from '@jobs/contracts';
import { summarizeAsyncSearch } from './async-search-tools.js';
import { summarizePage } from './job-summary.js';
import { publishedTools } from './mcp-server.js';
import { MCP_TOOLS } from './mcp-tools.js';
import { fieldList, publishedSchema } from './published-schema.js';
import { rotatedSecret } from './webhook-tools.js';

/** The budget of the whole `tools/list` answer: every client puts it into its model's context. */
const TOOLS_LIST_BUDGET_BYTES = 16 * 1024;

function validators() {
  const draft7 = new Ajv({ strict: false, allErrors: true });
  const draft2020 = new Ajv2020({ strict: false, allErrors: true });
  for (const ajv of [draft7, draft2020]) (addFormatsModule as unknown as (instance: Ajv) => Ajv)(ajv);
  return [draft7, draft2020] as const;
}

const T = '2026-10-01T12:00:00.000Z';
const company = { id: 'cmp_1', name: 'Acme Ltd', domain: 'acme.example' };
const watch = WatchSchema.parse({
  id: 'wat_1',
  type: 'search',
  domain: null,
  filters: { title_or: ['engineer'] },
  webhook_url: 'https://example.com/h',
  events: ['job.opened'],
  status: 'active',
  created_at: T,
});
const job = examples.job();
const events = EventListResponseSchema.parse({
  data: [
    { id: 'evt_1', type: 'job.opened', created_at: T, watch_id: 'wat_1', data: { job } },
    {
      id: 'evt_2',
      type: 'job.reposted',
      created_at: T,
      watch_id: 'wat_1',
      data: { job: { id: job.id, title: job.title, company: job.company, status: 'open', repost_count: 1 } },
    },
    {
      id: 'evt_3',
      type: 'job.closed',
      created_at: T,
      watch_id: 'wat_1',
      data: { job: { id: job.id, title: job.title, company: job.company, status: 'closed', closed_reason: 'filled' } },
    },
    {
      id: 'evt_4',
      type: 'company.hiring_started',
      created_at: T,
      watch_id: 'wat_2',
      data: { company, is_hiring: { value: true, confidence: 0.9, basis: 'open jobs' } },
    },
    {
      id: 'evt_5',
      type: 'search.completed',
      created_at: T,
      watch_id: null,
      data: { search: { id: 'srch_1', status: 'completed', jobs_found: 3 } },
    },
  ],
  next_cursor: 'cur_next',
});

/** A structured result of each tool, as the service sends it (checked against the contracts first). */
const SAMPLES: Record<string, unknown> = {
  estimate_search: DryRunEstimateSchema.parse({
    request_id: 'req_1',
    estimate: {
      expected_unique_jobs_range: { min: 1, max: 3 },
      providers_planned: ['own_index'],
      credits_range: { min: 0, max: 3 },
    },
  }),
  search_jobs: summarizePage(examples.searchResponse()),
  get_job: job,
  get_company_profile: CompanyProfileSchema.parse({
    company,
    open_jobs_count: 4,
    is_hiring: { value: null, confidence: 0.2, basis: 'too few sources' },
    hiring_pulse: { direction: 'flat', open_jobs_30d_change: 0 },
    top_job_families: [{ job_family: 'engineering', open_jobs: 4 }],
    sources: [{ provider: 'provider_a', open_jobs: 4, last_seen_at: T }],
  }),
  get_account: AccountSchema.parse({
    plan: 'pro',
    credits_remaining: 5,
    credits_reset_at: T,
    providers_enabled: ['own_index'],
    rate_limit: { limit: 10, window_seconds: 60 },
  }),
  list_providers: ProviderListResponseSchema.parse({
    data: [
      { slug: 'own_index', name: 'Own index', enabled_on_your_plan: true, status: 'operational', last_checked_at: T },
    ],
  }),
  create_watch: watch,
  list_watches: { data: [watch], next_cursor: null },
  delete_watch: { id: 'wat_1', deleted: true },
  list_events: events,
  start_async_search: summarizeAsyncSearch({
    id: 'srch_1',
    status: 'queued',
    created_at: T,
    updated_at: T,
    completed_at: null,
    webhook_url: null,
    jobs_found: 0,
    data: [],
    next_cursor: null,
    metadata: null,
  }),
  get_async_search: summarizeAsyncSearch({
    id: 'srch_1',
    status: 'completed',
    created_at: T,
    updated_at: T,
    completed_at: T,
    webhook_url: 'https://example.com/h',
    jobs_found: 1,
    data: [job],
    next_cursor: 'cur_next',
    metadata: examples.metadata(),
  }),
  list_ledger_entries: {
    data: [
      {
        id: 'led_1',
        job_id: job.id,
        request_id: 'req_1',
        operation: 'POST /v1/jobs/search',
        credits: 1,
        reason: 'charged',
        created_at: T,
      },
      {
        id: 'led_2',
        job_id: null,
        request_id: 'req_2',
        operation: 'GET /v1/companies/acme.example',
        credits: 1,
        reason: 'charged',
        created_at: T,
      },
    ],
    next_cursor: null,
  },
  replay_event: { event_id: 'evt_1', status: 'queued' },
  list_webhook_endpoints: {
    data: [
      {
        url: 'https://example.com/h',
        secret_hint: 'whsec_…abcd',
        secret_created_at: T,
        previous_secret_expires_at: null,
        used_by: { watches: 1, watch_ids: ['wat_1'], async_searches: 0, async_search_ids: [] },
      },
    ],
    next_cursor: null,
  },
  get_webhook_secret: { url: 'https://example.com/h', secret: 'whsec_0123456789abcdefABCD', created_at: T },
  rotate_webhook_secret: rotatedSecret(
    { url: 'https://example.com/h', secret: 'whsec_0123456789abcdefABCD', created_at: T, previous_expires_at: T },
    false,
  ),
};

describe('the published tool list', () => {
  const tools = publishedTools();

  it(`fits in ${TOOLS_LIST_BUDGET_BYTES / 1024} KB and still tells every tool's cost`, () => {
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(TOOLS_LIST_BUDGET_BYTES);
    for (const tool of tools) expect(tool.description).toMatch(/FREE|COSTS? .*CREDIT/);
  });

  it('is JSON Schema 2020-12 by default (no $schema) and compiles as draft-07 too', () => {
    for (const ajv of validators()) {
      for (const tool of tools) {
        expect(tool.inputSchema).not.toHaveProperty('$schema');
        expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
        expect(() => ajv.compile(tool.outputSchema!)).not.toThrow();
      }
    }
  });

  it.each(MCP_TOOLS.map((tool) => tool.name))(
    '%s: what the service sends passes its published output schema, in both dialects',
    (name) => {
      const tool = tools.find((t) => t.name === name)!;
      const result = SAMPLES[name];
      expect(MCP_TOOLS.find((t) => t.name === name)!.output.safeParse(result).success).toBe(true);
      for (const ajv of validators()) {
        const validate = ajv.compile(tool.outputSchema!);
        expect({ valid: validate(result), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
      }
    },
  );

  it('keeps the bounds of arguments, which a model needs to call right', () => {
    const search = tools.find((t) => t.name === 'search_jobs')!.inputSchema as unknown as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(search.required).toEqual(['max_credits']);
    expect(search.additionalProperties).toBe(false);
    expect(search.properties['limit']).toMatchObject({ minimum: 1, maximum: 100, default: 25 });
    expect(search.properties['filters']).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: {
        posted_within_days: { minimum: 1, maximum: 365 },
        country_code_or: { items: { pattern: '^[A-Z]{2}$' } },
        seniority_or: { items: { enum: expect.arrayContaining(['senior']) } },
      },
    });
    // estimate_search and start_async_search point at search_jobs' filters and waterfall instead of repeating them
    for (const name of ['estimate_search', 'start_async_search']) {
      const properties = tools.find((t) => t.name === name)!.inputSchema.properties!;
      expect(properties['filters']).toEqual({ type: 'object', description: expect.stringContaining('search_jobs') });
      expect(properties['waterfall']).toEqual({ type: 'object', description: expect.stringContaining('search_jobs') });
    }
  });

  it('names every field of each answer, nested ones in braces', () => {
    const outline = (name: string) => tools.find((t) => t.name === name)!.outputSchema!;
    expect(outline('get_company_profile')).toEqual({
      type: 'object',
      description:
        '{company{id, name, domain}, open_jobs_count, is_hiring{value, confidence, basis}, ' +
        'hiring_pulse{direction, open_jobs_30d_change}, top_job_families[{job_family, open_jobs}], ' +
        'sources[{provider, open_jobs, last_seen_at}]}',
    });
    expect(outline('get_async_search')['description']).toContain('data[(job summary as in search_jobs)]');
    expect(outline('list_events')['description']).toMatch(/watch_id, data\(job\.opened/);
  });

  it('never calls a tool that may spend credits read-only', () => {
    const spending = MCP_TOOLS.filter((tool) => !tool.cost.startsWith('free'));
    expect(spending.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['search_jobs', 'get_job', 'get_company_profile', 'start_async_search']),
    );
    for (const tool of spending) expect([tool.name, tool.hints.readOnlyHint]).toEqual([tool.name, false]);
  });

  it('publishes only the hints that differ from the MCP defaults', () => {
    const hints = (name: string) => tools.find((t) => t.name === name)!.annotations;
    // the tools that spend credits never say read-only (clients auto-approve those)
    expect(hints('get_job')).toEqual({ destructiveHint: false, idempotentHint: true });
    expect(hints('get_company_profile')).toEqual({ destructiveHint: false });
    expect(hints('get_account')).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(hints('search_jobs')).toEqual({ destructiveHint: false });
    expect(hints('delete_watch')).toEqual({ idempotentHint: true, openWorldHint: false });
  });
});

describe('publishedSchema', () => {
  it('drops the safe-integer bounds, the date-time regex and the checks a model need not read', () => {
    const schema = z.strictObject({
      n: z.number().int(),
      at: z.iso.datetime(),
      code: z
        .string()
        .regex(/^[A-Z]{2}$/)
        .min(2),
      id: z.string().regex(/^job_[A-Za-z0-9_-]{1,128}$/),
      tags: z.array(z.string()).min(1).max(5),
      level: z.enum(['a', 'b']).nullable(),
    });
    expect(publishedSchema(schema, 'input')).toEqual({
      type: 'object',
      properties: {
        n: { type: 'integer' },
        at: { type: 'string', format: 'date-time' },
        code: { type: 'string', pattern: '^[A-Z]{2}$' },
        id: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        level: { type: ['string', 'null'], enum: ['a', 'b', null] },
      },
      required: ['n', 'at', 'code', 'id', 'tags', 'level'],
      additionalProperties: false,
    });
  });

  it('publishes an output as the names of its fields', () => {
    const company = z.object({ id: z.string(), name: z.string(), domain: z.string().nullable() });
    const schema = z.object({ a: company, b: z.array(company), c: company.nullable(), n: z.number() });
    expect(publishedSchema(schema, 'output')).toEqual({
      type: 'object',
      description: '{a{id, name, domain}, b[{id, name, domain}], c{id, name, domain}, n}',
    });
  });

  it('describes in words a contract schema nested below the root that another tool publishes', () => {
    const inner = z.object({ x: z.number() });
    const outlines = new Map([[inner as z.ZodType, 'See the other tool.']]);
    expect(publishedSchema(z.object({ inner }), 'input', outlines)['properties']).toEqual({
      inner: { type: 'object', description: 'See the other tool.' },
    });
    expect(publishedSchema(z.object({ inner }), 'output', outlines)).toEqual({
      type: 'object',
      description: '{inner(See the other tool.)}',
    });
    // at the root it is published in full
    expect(publishedSchema(inner, 'input', outlines)['properties']).toEqual({ x: { type: 'number' } });
  });
});

describe('fieldList', () => {
  it('reads unions branch by branch and leaves scalars unnamed', () => {
    expect(fieldList({ type: 'string' })).toBe('');
    expect(fieldList({ type: 'array', items: { type: 'string' } })).toBe('');
    expect(
      fieldList({
        anyOf: [{ type: 'object', properties: { a: {} } }, { type: 'object', properties: { b: {} } }, { type: 'null' }],
      }),
    ).toBe('{a} | {b}');
  });
});
