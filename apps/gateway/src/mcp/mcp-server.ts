/**
 * Builds the MCP server of one HTTP request: the SDK's McpServer with every tool of MCP_TOOLS,
 * each call sent through `dispatch` (the gateway's own HTTP pipeline). The SDK is loaded on the
 * first MCP request, not at start-up: a gateway restart (README, issue 14) does not pay for
 * modules that only MCP callers use.
 */
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { SERVICE_VERSION } from '@jobs/contracts';
import { MCP_TOOLS, type ApiAnswer, type ApiCall } from './mcp-tools.js';
import { toolError, toolResult } from './tool-results.js';

export const MCP_SERVER_NAME = 'job-data-api';

/** What a model is told about the server as a whole (the `instructions` of `initialize`). */
export const MCP_INSTRUCTIONS = [
  'Job-data aggregation API: one search asks the own index and the plan\'s partner providers and returns canonical, de-duplicated jobs.',
  'Credits: search_jobs costs 1 credit per new unique job (capped by its required max_credits), get_job 1 credit unless already paid, get_company_profile 1 credit per call;',
  'estimate_search, get_account, create_watch, list_watches, delete_watch and list_events are free. A job is never charged twice to an account, and a test key (svc_test_) is never charged.',
  'Before a search that may cost credits, call estimate_search (free) and get_account to check the balance.',
  'Errors come back as tool errors naming the API error code (e.g. unknown_filter, insufficient_credits, plan_required, rate_limited) and a request_id.',
].join(' ');

interface Sdk {
  McpServer: typeof McpServer;
  Transport: typeof WebStandardStreamableHTTPServerTransport;
}

let sdk: Promise<Sdk> | undefined;

export function loadSdk(): Promise<Sdk> {
  sdk ??= Promise.all([import('@modelcontextprotocol/sdk/server/mcp.js'), import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')]).then(
    ([mcp, http]) => ({ McpServer: mcp.McpServer, Transport: http.WebStandardStreamableHTTPServerTransport }),
  );
  return sdk;
}

export type Dispatch = (call: ApiCall) => Promise<ApiAnswer>;

/** The server of one MCP request, every tool registered; `dispatch` sends a tool's API request as the caller. */
export function buildMcpServer({ McpServer }: Sdk, dispatch: Dispatch): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, title: 'Job data API', version: SERVICE_VERSION }, { instructions: MCP_INSTRUCTIONS });
  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, outputSchema: tool.output, annotations: { title: tool.title, ...tool.hints } },
      async (args: Record<string, unknown>) => {
        const call = tool.request(args, () => `mcp_${randomUUID()}`);
        let answer: ApiAnswer;
        try {
          answer = await dispatch(call);
        } catch {
          return toolError(`internal_error: ${tool.name} could not reach the API.${call.idempotencyKey ? ` Retry with idempotency_key "${call.idempotencyKey}".` : ' Safe to retry.'}`);
        }
        return toolResult(tool, args, answer, call.idempotencyKey);
      },
    );
  }
  return server;
}
