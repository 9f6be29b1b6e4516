/**
 * Builds the MCP server of one HTTP request: the SDK's protocol `Server` answering `tools/list`
 * with the published tool list (published-schema.ts: computed once per process, compact) and
 * `tools/call` by checking the arguments against the tool's zod input schema, then sending its
 * API request through `dispatch` (the gateway's own HTTP pipeline). The SDK's higher-level
 * `McpServer` would publish the full contract schemas and convert them again on every list; this
 * keeps the list small and made once. The SDK is loaded on the first MCP request, not at
 * start-up: a gateway restart does not pay for modules only MCP callers use.
 *
 * A server is built per request because the SDK's stateless transport serves one request only;
 * what costs is shared: the JSON Schema validator (an Ajv instance, which each `Server` would
 * otherwise compile its formats into, most of a server's construction) is made once.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type * as StreamableHttp from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
  Tool,
  isJSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { SERVICE_VERSION } from '@jobs/contracts';
import { publishedHints } from './mcp-tool.js';
import { MCP_TOOLS, PUBLISHED_OUTLINES, type ApiAnswer, type ApiCall, type McpTool } from './mcp-tools.js';
import { publishedSchema } from './published-schema.js';
import { argumentProblems, describeArgumentProblems } from './tool-arguments.js';
import { toolError, toolResult, type ToolResult } from './tool-results.js';

export const MCP_SERVER_NAME = 'job-data-api';

/** What a model is told about the server as a whole (the `instructions` of `initialize`). */
export const MCP_INSTRUCTIONS = [
  "Job-data aggregation API: one search asks the own index and the plan's partner providers and " +
    'returns canonical, de-duplicated jobs.',
  'Costs: search_jobs and start_async_search 1 credit per new unique job, capped by their required ' +
    'max_credits; get_job 1 credit unless already paid; get_company_profile 1 credit per call; every ' +
    'other tool is free. A job is never charged twice to an account; a test key (svc_test_) never.',
  'Before spending, call estimate_search and get_account (free). search_jobs and get_async_search ' +
    'return job summaries; get_job gives the full job, free for a job already returned.',
  'Errors are tool errors naming the API error code (unknown_filter, insufficient_credits, ' +
    'plan_required, rate_limited...) and a request_id; every problem of the arguments is listed at once.',
].join(' ');

export interface Sdk {
  Server: typeof Server;
  Transport: typeof StreamableHttp.WebStandardStreamableHTTPServerTransport;
  ListTools: typeof ListToolsRequestSchema;
  CallTool: typeof CallToolRequestSchema;
  McpError: typeof McpError;
  ErrorCode: typeof ErrorCode;
  isJsonRpcRequest: typeof isJSONRPCRequest;
  /** The `MCP-Protocol-Version` values the transport accepts. */
  protocolVersions: readonly string[];
  /** One validator for every server of the process. */
  validator: jsonSchemaValidator;
}

let sdk: Promise<Sdk> | undefined;

export function loadSdk(): Promise<Sdk> {
  sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
  ]).then(([server, http, types, ajv]) => ({
    Server: server.Server,
    Transport: http.WebStandardStreamableHTTPServerTransport,
    ListTools: types.ListToolsRequestSchema,
    CallTool: types.CallToolRequestSchema,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    isJsonRpcRequest: types.isJSONRPCRequest,
    protocolVersions: types.SUPPORTED_PROTOCOL_VERSIONS,
    validator: new ajv.AjvJsonSchemaValidator(),
  }));
  return sdk;
}

let published: Tool[] | undefined;

/** The `tools/list` answer: the same for every caller, so made once. */
export function publishedTools(): Tool[] {
  published ??= MCP_TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: publishedSchema(tool.input, 'input', PUBLISHED_OUTLINES.input) as Tool['inputSchema'],
    outputSchema: publishedSchema(tool.output, 'output', PUBLISHED_OUTLINES.output) as Tool['outputSchema'],
    annotations: publishedHints(tool.hints),
  }));
  return published;
}

export type Dispatch = (call: ApiCall) => Promise<ApiAnswer>;

/** The server of one MCP request, every tool listed; `dispatch` sends a tool's API request as the caller. */
export function buildMcpServer(sdk: Sdk, dispatch: Dispatch): Server {
  const server = new sdk.Server(
    { name: MCP_SERVER_NAME, title: 'Job data API', version: SERVICE_VERSION },
    { capabilities: { tools: {} }, instructions: MCP_INSTRUCTIONS, jsonSchemaValidator: sdk.validator },
  );
  server.setRequestHandler(sdk.ListTools, () => ({ tools: publishedTools() }));
  server.setRequestHandler(sdk.CallTool, async (request) => {
    const tool = MCP_TOOLS.find((candidate) => candidate.name === request.params.name);
    // An unknown tool is a protocol error (the spec's own example); everything else a tool result.
    if (!tool) throw new sdk.McpError(sdk.ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return callTool(tool, request.params.arguments ?? {}, dispatch);
  });
  return server;
}

async function callTool(tool: McpTool, rawArgs: Record<string, unknown>, dispatch: Dispatch): Promise<ToolResult> {
  const parsed = tool.input.safeParse(rawArgs);
  if (!parsed.success) return toolError(describeArgumentProblems(argumentProblems(parsed.error)));
  const args = parsed.data as Record<string, unknown>;
  const call = tool.request(args, () => `mcp_${randomUUID()}`);
  let answer: ApiAnswer;
  try {
    answer = await dispatch(call);
  } catch {
    return toolError(
      `internal_error: ${tool.name} could not reach the ` +
        `API.${call.idempotencyKey ? ` Retry with idempotency_key "${call.idempotencyKey}".` : ' Safe to retry.'}`,
    );
  }
  return toolResult(tool, args, answer, call.idempotencyKey);
}
