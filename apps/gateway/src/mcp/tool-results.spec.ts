import { examples } from '@jobs/contracts';
import { summarizeJob } from './job-summary.js';
import { MCP_TOOLS, type ApiAnswer, type McpTool } from './mcp-tools.js';
import { describeFailure, toolResult } from './tool-results.js';

const tool = (name: string): McpTool => MCP_TOOLS.find((t) => t.name === name)!;

function failure(status: number, error: Record<string, unknown>, headers: Record<string, string> = {}): ApiAnswer {
  return {
    status,
    headers: { 'x-request-id': 'req_1', ...headers },
    body: {
      error: { doc_url: `http://127.0.0.1:8080/docs/errors#${String(error['code'])}`, request_id: 'req_1', ...error },
    },
  };
}

describe('describeFailure', () => {
  it('names the code, the HTTP status, the message and the request id', () => {
    expect(
      describeFailure('get_job', failure(404, { type: 'not_found_error', code: 'not_found', message: 'No such job' })),
    ).toBe('not_found (HTTP 404): No such job. [request_id: req_1]');
  });

  it('carries what the caller needs to fix or retry: credits needed, required plan, Retry-After', () => {
    expect(
      describeFailure(
        'search_jobs',
        failure(402, {
          type: 'billing_error',
          code: 'insufficient_credits',
          message: 'Not enough credits.',
          credits_needed: 4,
          upgrade_url: 'https://jobdata.example/pricing',
        }),
      ),
    ).toBe(
      'insufficient_credits (HTTP 402): Not enough credits. ' +
        '[credits_needed: 4] [upgrade_url: ' +
        'https://jobdata.example/pricing] [request_id: req_1]',
    );
    expect(
      describeFailure(
        'create_watch',
        failure(403, {
          type: 'permission_error',
          code: 'plan_required',
          message: 'Watches need pro.',
          required_plan: 'pro',
          upgrade_url: 'https://jobdata.example/pricing',
        }),
      ),
    ).toBe(
      'plan_required (HTTP 403): Watches need pro. [required_plan: ' +
        'pro] [upgrade_url: https://jobdata.example/pricing] ' +
        '[request_id: req_1]',
    );
    expect(
      describeFailure(
        'get_account',
        failure(429, { type: 'rate_limit_error', code: 'rate_limited', message: 'Slow down' }, { 'retry-after': '7' }),
      ),
    ).toBe('rate_limited (HTTP 429): Slow down. [retry_after_seconds: 7] [request_id: req_1]');
  });

  it('after an internal_error names the idempotency key to retry with', () => {
    const answer = failure(500, {
      type: 'api_error',
      code: 'internal_error',
      message: 'Something went wrong on our side.',
    });
    expect(describeFailure('search_jobs', answer, 'mcp_k')).toBe(
      'internal_error (HTTP 500): Something went wrong on our side. ' +
        'Retry with idempotency_key "mcp_k": the call then never runs ' +
        'or charges twice. [request_id: req_1]',
    );
    expect(describeFailure('get_job', answer)).toBe(
      'internal_error (HTTP 500): Something went wrong on our side. Safe to retry. [request_id: req_1]',
    );
  });

  it('still gives the request id when the body is not the error envelope', () => {
    expect(describeFailure('get_job', { status: 502, headers: { 'x-request-id': 'req_9' }, body: 'Bad gateway' })).toBe(
      'internal_error (HTTP 502): the API gave get_job an answer ' +
        'without its error envelope. Safe to retry. [request_id: ' +
        'req_9]',
    );
  });
});

describe('toolResult', () => {
  it('returns a 2xx body as structured content, with a summary as its only text', async () => {
    const job = examples.job();
    const result = toolResult(
      tool('get_job'),
      { job_id: job.id },
      { status: 200, headers: { 'x-credits-charged': '1', 'x-credits-remaining': '41' }, body: job },
    );
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(job);
    expect(result.content).toEqual([
      {
        type: 'text',
        text:
          `${job.title} at ${job.company.name} (${job.status}). London, ` +
          `GB; 80,000-100,000 GBP per year; apply: ${job.apply_url}. ` +
          `Charged 1 credit (41 left).`,
      },
    ]);
  });

  it('summarises a search page and refuses one that breaks the search contract', () => {
    const page = examples.searchResponse();
    const result = toolResult(tool('search_jobs'), {}, { status: 200, headers: {}, body: page });
    expect(result.structuredContent).toEqual({
      data: [summarizeJob(page.data[0]!)],
      next_cursor: page.next_cursor,
      metadata: page.metadata,
    });
    const broken = toolResult(
      tool('search_jobs'),
      {},
      { status: 200, headers: { 'x-request-id': 'req_3' }, body: { ...page, data: [{ id: 'job_1' }] } },
    );
    expect(broken.isError).toBe(true);
    expect(broken.content[0]!.text).toMatch(
      new RegExp(
        String.raw`^internal_error: the API's answer to search_jobs does not match its published schema ` +
          String.raw`\(.+ at data\.0\.title\)\. \[request_id: req_3\]$`,
      ),
    );
  });

  it('turns an error answer into a tool error without structured content', () => {
    const result = toolResult(
      tool('get_job'),
      { job_id: 'job_x' },
      failure(404, { type: 'not_found_error', code: 'not_found', message: 'No such job.' }),
    );
    expect(result).toEqual({
      content: [{ type: 'text', text: 'not_found (HTTP 404): No such job. [request_id: req_1]' }],
      isError: true,
    });
  });

  it('refuses to pass on a body that breaks the contract', () => {
    const result = toolResult(
      tool('get_account'),
      {},
      { status: 200, headers: { 'x-request-id': 'req_2' }, body: { plan: 'pro', credits_remaining: -1 } },
    );
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(
      new RegExp(
        String.raw`^internal_error: the API's answer to get_account does not match its published schema ` +
          String.raw`\(.+\)\. \[request_id: req_2\]$`,
      ),
    );
  });
});
