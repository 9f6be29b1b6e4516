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
    expect(search.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: true });
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
      expect(summary).toMatch(/^\d+ jobs \((complete|partial)\); charged \d+ credits?, /);
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^${job.id}: ${job.title}, ${job.company.name}`))]);
      expect(() => JSON.parse(blocks[0]!.text)).toThrow();
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

  it(
    'passes an unknown filter on to the API, whose unknown_filter ' + 'comes back as a tool error with its request id',
    async () => {
      answer = {
        status: 400,
        headers: { 'x-request-id': 'req_abc' },
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'unknown_filter',
            message: 'Unknown filter "titel_or"; did you mean "title_or"?',
            doc_url: 'http://127.0.0.1:8080/docs/errors#unknown_filter',
            request_id: 'req_abc',
            param: 'filters.titel_or',
          },
        },
      };
      const result = await client.callTool({
        name: 'estimate_search',
        arguments: { filters: { titel_or: ['engineer'] } },
      });
      expect(calls[0]).toMatchObject({ body: { filters: { titel_or: ['engineer'] }, dry_run: true } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect((result.content as { text: string }[])[0]!.text).toBe(
        'unknown_filter (HTTP 400): Unknown filter "titel_or"; did ' +
          'you mean "title_or"? [param: filters.titel_or] [request_id: ' +
          'req_abc]',
      );
    },
  );

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
