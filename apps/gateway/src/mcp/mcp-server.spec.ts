import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { examples } from '@jobs/contracts';
import { buildMcpServer, loadSdk, MCP_INSTRUCTIONS } from './mcp-server.js';
import { summarizePage } from './job-summary.js';
import { MCP_TOOLS, type ApiAnswer, type ApiCall } from './mcp-tools.js';

/** The tools as an MCP client sees them, against a stub of the HTTP API (no gateway, no network). */
describe('the MCP server over the official SDK', () => {
  const calls: ApiCall[] = [];
  let answer: ApiAnswer;
  let client: Client;

  beforeAll(async () => {
    const server = buildMcpServer(await loadSdk(), async (call) => {
      calls.push(call);
      return answer;
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'spec', version: '0' });
    await client.connect(clientSide);
  });
  afterAll(() => client.close());
  beforeEach(() => (calls.length = 0));

  it('lists every tool with its input and output JSON schemas and tells the costs', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description).toMatch(/FREE|CREDIT/);
    }
    const search = tools.find((t) => t.name === 'search_jobs')!;
    expect(search.inputSchema.required).toContain('max_credits');
    expect(search.annotations).toEqual({ destructiveHint: false });
    expect(client.getInstructions()).toBe(MCP_INSTRUCTIONS);
  });

  it(
    'sends a search with max_credits as the waterfall cap and an ' +
      'Idempotency-Key, and returns job summaries with a text ' +
      'summary, not the JSON again',
    async () => {
      const page = examples.searchResponse();
      answer = { status: 200, headers: { 'x-credits-charged': '1' }, body: page };
      const result = await client.callTool({
        name: 'search_jobs',
        arguments: { filters: { title_or: ['engineer'] }, max_credits: 5, limit: 10 },
      });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(summarizePage(page));
      const job = page.data[0]!;
      expect(result.structuredContent).toMatchObject({
        data: [{ id: job.id, title: job.title, company: job.company.name, providers: job.sources.length }],
        metadata: page.metadata,
      });
      const blocks = result.content as { type: string; text: string }[];
      expect(blocks).toHaveLength(1);
      const [summary, ...lines] = blocks[0]!.text.split('\n');
      expect(summary).toMatch(/^1 job \(complete\); charged 1 credit, 0 already paid \(free\), 99 credits left\. /);
      // the ids to act on, not the jobs again
      expect(lines).toEqual([`Ids: ${job.id}.`]);
      expect(blocks[0]!.text).not.toContain(job.title);
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({
        method: 'POST',
        url: '/v1/jobs/search',
        body: { filters: { title_or: ['engineer'] }, limit: 10, waterfall: { max_credits: 5 } },
      });
      expect(calls[0]!.idempotencyKey).toMatch(/^mcp_[0-9a-f-]{36}$/);
    },
  );

  it('answers an unknown tool with a protocol error', async () => {
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /Unknown tool: no_such_tool/,
    );
    expect(calls).toHaveLength(0);
  });

  it('reports every problem of the arguments at once, each unknown filter with its likely name', async () => {
    const result = await client.callTool({
      name: 'search_jobs',
      arguments: { filters: { titel_or: ['engineer'], remot: true }, limit: 101, max_credit: 5 },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const lines = (result.content as { text: string }[])[0]!.text.split('\n');
    expect(lines[0]).toBe(
      'invalid_request: 5 problems with the arguments. The call was not sent: nothing was charged.',
    );
    expect(lines.slice(1)).toHaveLength(5);
    expect(lines.slice(1)).toEqual(
      expect.arrayContaining([
        '- unknown_filter: Unknown filter "titel_or". Did you mean "title_or"? [param: filters.titel_or]',
        '- unknown_filter: Unknown filter "remot". Did you mean "remote"? [param: filters.remot]',
        expect.stringMatching(/^- invalid_request: limit: .*100\. \[param: limit\]$/),
        '- invalid_request: Unknown argument "max_credit". [param: max_credit]',
        expect.stringMatching(/^- invalid_request: max_credits: .*\. \[param: max_credits\]$/),
      ]),
    );
    expect(calls).toHaveLength(0);
  });

  it('refuses arguments outside the contracts before any request is made', async () => {
    const result = await client.callTool({ name: 'search_jobs', arguments: { max_credits: 5, limit: 101 } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toMatch(
      /^invalid_request: limit: .* The call was not sent: nothing was charged\. \[param: limit\]$/,
    );
    const missingCap = await client.callTool({ name: 'search_jobs', arguments: {} });
    expect(missingCap.isError).toBe(true);
    expect((missingCap.content as { text: string }[])[0]!.text).toMatch(/max_credits/);
    expect(calls).toHaveLength(0);
  });

  it('starts an async search and polls it: summaries of its jobs, and what to do next in the text', async () => {
    const queued = {
      id: 'srch_1',
      status: 'queued',
      created_at: '2026-10-01T12:00:00.000Z',
      updated_at: '2026-10-01T12:00:00.000Z',
      completed_at: null,
      webhook_url: null,
      jobs_found: 0,
      data: [],
      next_cursor: null,
      metadata: null,
    };
    answer = { status: 202, headers: {}, body: queued };
    const started = await client.callTool({
      name: 'start_async_search',
      arguments: { filters: { title_or: ['engineer'] }, max_credits: 20, limit: 200 },
    });
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/v1/searches', body: { waterfall: { max_credits: 20 } } });
    expect(calls[0]!.idempotencyKey).toMatch(/^mcp_/);
    expect(started.structuredContent).toEqual(queued);
    expect((started.content as { text: string }[])[0]!.text).toBe(
      'Async search srch_1 is queued, 0 jobs found so far. Poll get_async_search in a few seconds.',
    );

    const job = examples.job();
    const done = { ...queued, status: 'completed', jobs_found: 1, data: [job], metadata: examples.metadata() };
    answer = { status: 200, headers: {}, body: done };
    const polled = await client.callTool({ name: 'get_async_search', arguments: { search_id: 'srch_1' } });
    expect(calls[1]).toEqual({ method: 'GET', url: '/v1/searches/srch_1?limit=25' });
    expect(polled.structuredContent).toMatchObject({ status: 'completed', data: [{ id: job.id, title: job.title }] });
    expect((polled.content as { text: string }[])[0]!.text).toBe(
      `Async search srch_1 is completed, 1 job found; charged 1 credit in all. This page: 1 job. Last page.\n` +
        `Ids: ${job.id}.`,
    );
  });

  it('rotates a secret without showing it unless reveal is true', async () => {
    const rotated = {
      url: 'https://example.com/h',
      secret: 'whsec_0123456789abcdefWXYZ',
      created_at: '2026-10-01T12:00:00.000Z',
      previous_expires_at: '2026-10-02T12:00:00.000Z',
    };
    answer = { status: 200, headers: {}, body: rotated };
    const hidden = await client.callTool({ name: 'rotate_webhook_secret', arguments: { url: rotated.url } });
    expect(hidden.structuredContent).toEqual({
      url: rotated.url,
      secret_hint: 'whsec_…WXYZ',
      created_at: rotated.created_at,
      previous_expires_at: rotated.previous_expires_at,
    });
    expect(JSON.stringify(hidden)).not.toContain(rotated.secret);
    const shown = await client.callTool({
      name: 'rotate_webhook_secret',
      arguments: { url: rotated.url, reveal: true },
    });
    expect(shown.structuredContent).toMatchObject({ secret: rotated.secret });
    // the API request is the same either way: a retry with the same key is no conflict
    expect(calls[0]!.body).toEqual(calls[1]!.body);
  });

  it('answers a delete (204, no body) with the id it deleted', async () => {
    answer = { status: 204, headers: {}, body: undefined };
    const result = await client.callTool({ name: 'delete_watch', arguments: { watch_id: 'wat_123' } });
    expect(calls[0]).toEqual({ method: 'DELETE', url: '/v1/watches/wat_123' });
    expect(result.structuredContent).toEqual({ id: 'wat_123', deleted: true });
  });

  it('reports an answer that breaks its contract as a tool error, never as structured content', async () => {
    answer = { status: 200, headers: { 'x-request-id': 'req_def' }, body: { plan: 'pro' } };
    const result = await client.callTool({ name: 'get_account', arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toMatch(
      /^internal_error: .*does not match its published schema.*\[request_id: req_def\]$/,
    );
  });
});
