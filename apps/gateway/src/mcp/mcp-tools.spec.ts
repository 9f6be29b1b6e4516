import { argumentList, MCP_TOOLS, queryString, renderToolTable, type McpTool } from './mcp-tools.js';

const byName = (name: string): McpTool => MCP_TOOLS.find((tool) => tool.name === name)!;
const newKey = () => 'mcp_new';

/** Each tool's arguments as the SDK hands them over: parsed by the tool's input schema. */
function requestOf(name: string, args: Record<string, unknown>) {
  const tool = byName(name);
  return tool.request(tool.input.parse(args), newKey);
}

describe('MCP_TOOLS', () => {
  it('names each tool once and tells a model what it costs, in its description and its cost line', () => {
    expect(new Set(MCP_TOOLS.map((tool) => tool.name)).size).toBe(MCP_TOOLS.length);
    for (const tool of MCP_TOOLS) {
      expect(tool.name).toMatch(/^[a-z_]+$/);
      const free = /^free/.test(tool.cost);
      expect(tool.description).toMatch(free ? /FREE/ : /COSTS? .*CREDIT/);
      expect(tool.cost).not.toBe('');
    }
  });

  it('estimate_search is the API dry run: the same body with dry_run true, no key needed', () => {
    expect(
      requestOf('estimate_search', { filters: { title_or: ['engineer'] }, waterfall: { max_credits: 3 } }),
    ).toEqual({
      method: 'POST',
      url: '/v1/jobs/search',
      body: {
        filters: { title_or: ['engineer'] },
        waterfall: { strategy: 'cheapest_first', max_credits: 3, timeout_ms: 10_000, min_sources: 2 },
        limit: 25,
        dry_run: true,
      },
    });
  });

  it('search_jobs tells how to page within a total budget: the remainder as max_credits on each page', () => {
    const { description } = byName('search_jobs');
    expect(description).toMatch(/within a total budget/);
    expect(description).toMatch(/what is left of it as max_credits/);
  });

  it(
    'search_jobs requires max_credits and sends it as ' +
      'waterfall.max_credits, the API hard cap, with an ' +
      'Idempotency-Key',
    () => {
      const search = byName('search_jobs');
      expect(search.input.safeParse({ filters: {} }).success).toBe(false);
      expect(search.input.safeParse({ max_credits: -1 }).success).toBe(false);
      // the cap is given once: not inside the waterfall as well
      expect(search.input.safeParse({ max_credits: 1, waterfall: { max_credits: 9 } }).success).toBe(false);
      expect(requestOf('search_jobs', { max_credits: 0, cursor: 'cur_abc' })).toEqual({
        method: 'POST',
        url: '/v1/jobs/search',
        body: { limit: 25, cursor: 'cur_abc', waterfall: { max_credits: 0 } },
        idempotencyKey: 'mcp_new',
      });
      expect(
        requestOf('search_jobs', { max_credits: 4, waterfall: { strategy: 'max_coverage' }, idempotency_key: 'mine' }),
      ).toMatchObject({
        body: { waterfall: { strategy: 'max_coverage', max_credits: 4 } },
        idempotencyKey: 'mine',
      });
    },
  );

  it('refuses unknown filter names and arguments before any request, as the API would', () => {
    expect(byName('search_jobs').input.safeParse({ max_credits: 1, filters: { titel_or: ['x'] } }).success).toBe(false);
    expect(byName('search_jobs').input.safeParse({ max_credits: 1, max_credit: 1 }).success).toBe(false);
    expect(byName('get_account').input.safeParse({ extra: true }).success).toBe(false);
  });

  it('maps the reads and the watch calls onto their endpoints', () => {
    expect(requestOf('get_job', { job_id: 'job_a1' })).toEqual({ method: 'GET', url: '/v1/jobs/job_a1' });
    expect(requestOf('get_company_profile', { domain: ' Example.COM ' })).toEqual({
      method: 'GET',
      url: '/v1/companies/example.com',
    });
    expect(requestOf('get_account', {})).toEqual({ method: 'GET', url: '/v1/account' });
    expect(requestOf('list_watches', {})).toEqual({ method: 'GET', url: '/v1/watches' });
    expect(requestOf('list_watches', { cursor: 'cur_x' })).toEqual({ method: 'GET', url: '/v1/watches?cursor=cur_x' });
    expect(requestOf('delete_watch', { watch_id: 'wat_1' })).toEqual({ method: 'DELETE', url: '/v1/watches/wat_1' });
    expect(requestOf('list_events', {})).toEqual({ method: 'GET', url: '/v1/events' });
    expect(requestOf('list_events', { since: 'cur_s', limit: 10 })).toEqual({
      method: 'GET',
      url: '/v1/events?since=cur_s&limit=10',
    });
    expect(
      requestOf('create_watch', { type: 'company', domain: 'acme.com', webhook_url: 'https://example.com/h' }),
    ).toEqual({
      method: 'POST',
      url: '/v1/watches',
      // the contract's default: every job and company event
      body: {
        type: 'company',
        domain: 'acme.com',
        webhook_url: 'https://example.com/h',
        events: [
          'job.opened',
          'job.reposted',
          'job.closed',
          'job.updated',
          'company.hiring_started',
          'company.hiring_stopped',
        ],
      },
      idempotencyKey: 'mcp_new',
    });
  });

  it('starts an async search with its budget as the waterfall cap and an Idempotency-Key, and pages it', () => {
    const search = byName('start_async_search');
    expect(search.input.safeParse({ max_credits: 5 }).success).toBe(false);
    expect(search.input.safeParse({ filters: {} }).success).toBe(false);
    expect(search.input.safeParse({ filters: {}, max_credits: 5, limit: 10_001 }).success).toBe(false);
    expect(
      requestOf('start_async_search', {
        filters: { title_or: ['engineer'] },
        waterfall: { providers: ['provider_a'] },
        max_credits: 25,
        limit: 200,
        webhook_url: 'https://example.com/h',
      }),
    ).toEqual({
      method: 'POST',
      url: '/v1/searches',
      body: {
        filters: { title_or: ['engineer'] },
        waterfall: {
          strategy: 'cheapest_first',
          providers: ['provider_a'],
          timeout_ms: 10_000,
          min_sources: 2,
          max_credits: 25,
        },
        limit: 200,
        webhook_url: 'https://example.com/h',
      },
      idempotencyKey: 'mcp_new',
    });
    // a page of summaries is smaller than the API's page of full jobs, so the tool's default is smaller too
    expect(requestOf('get_async_search', { search_id: 'srch_1' })).toEqual({
      method: 'GET',
      url: '/v1/searches/srch_1?limit=25',
    });
    expect(requestOf('get_async_search', { search_id: 'srch_1', cursor: 'cur_x', limit: 100 })).toEqual({
      method: 'GET',
      url: '/v1/searches/srch_1?cursor=cur_x&limit=100',
    });
    expect(byName('get_async_search').input.safeParse({ search_id: 'job_1' }).success).toBe(false);
  });

  it('maps the ledger, replay and webhook endpoint calls onto their endpoints', () => {
    expect(requestOf('list_providers', {})).toEqual({ method: 'GET', url: '/v1/providers' });
    expect(requestOf('list_ledger_entries', {})).toEqual({ method: 'GET', url: '/v1/billing/ledger' });
    expect(requestOf('list_ledger_entries', { job_id: 'job_1', cursor: 'cur_x' })).toEqual({
      method: 'GET',
      url: '/v1/billing/ledger?job_id=job_1&cursor=cur_x',
    });
    expect(requestOf('replay_event', { event_id: 'evt_1' })).toEqual({
      method: 'POST',
      url: '/v1/webhooks/replay',
      body: { event_id: 'evt_1' },
    });
    expect(requestOf('list_webhook_endpoints', { cursor: 'cur_x' })).toEqual({
      method: 'GET',
      url: '/v1/webhook_endpoints?cursor=cur_x',
    });
    expect(requestOf('get_webhook_secret', { url: 'https://example.com/h', reveal: true })).toEqual({
      method: 'POST',
      url: '/v1/webhook_endpoints/secret',
      body: { url: 'https://example.com/h' },
    });
    expect(requestOf('rotate_webhook_secret', { url: 'https://example.com/h' })).toEqual({
      method: 'POST',
      url: '/v1/webhook_endpoints/secret/rotate',
      body: { url: 'https://example.com/h', previous_expires_in_seconds: 86_400 },
      idempotencyKey: 'mcp_new',
    });
  });

  it('reveals a secret only when the call says so', () => {
    const reveal = byName('get_webhook_secret').input;
    expect(reveal.safeParse({ url: 'https://example.com/h' }).success).toBe(false);
    expect(reveal.safeParse({ url: 'https://example.com/h', reveal: false }).success).toBe(false);
    expect(reveal.safeParse({ url: 'https://example.com/h', reveal: true }).success).toBe(true);
  });

  it("refuses ids and domains that are not the API's before any request", () => {
    expect(byName('get_job').input.safeParse({ job_id: '../account' }).success).toBe(false);
    expect(byName('delete_watch').input.safeParse({ watch_id: 'job_1' }).success).toBe(false);
    expect(byName('get_company_profile').input.safeParse({ domain: 'https://acme.com/x' }).success).toBe(false);
    expect(byName('list_events').input.safeParse({ limit: 101 }).success).toBe(false);
    expect(byName('replay_event').input.safeParse({ event_id: 'wat_1' }).success).toBe(false);
    expect(byName('list_ledger_entries').input.safeParse({ job_id: 'led_1' }).success).toBe(false);
  });
});

describe('renderToolTable', () => {
  it('names every argument of every tool, the required ones marked', () => {
    const table = renderToolTable();
    for (const tool of MCP_TOOLS) {
      const row = table.split('\n').find((line) => line.startsWith(`| \`${tool.name}\` |`))!;
      for (const name of Object.keys(tool.input.shape)) expect(row).toContain(`\`${name}\``);
    }
    expect(argumentList(byName('get_job'))).toBe('`job_id` (required)');
    expect(argumentList(byName('get_account'))).toBe('none');
    expect(argumentList(byName('search_jobs'))).toBe(
      '`filters`, `waterfall`, `max_credits` (required), `limit`, `cursor`, `idempotency_key`',
    );
  });
});

describe('queryString', () => {
  it('encodes the defined parameters only', () => {
    expect(queryString({})).toBe('');
    expect(queryString({ a: undefined })).toBe('');
    expect(queryString({ a: 'x y&z', b: 2, c: undefined })).toBe('?a=x+y%26z&b=2');
  });
});
