/**
 * The MCP server's tools, as plain data: each names the HTTP API call it makes, its input and
 * output schemas (the contracts' own zod schemas) and what it costs. No Nest, no SDK, no I/O:
 * the server (mcp-server.ts) registers these with the SDK and runs each call through the
 * gateway's own HTTP pipeline (api-dispatcher.ts), so every rule of the HTTP API applies as is.
 *
 * Arguments are checked against the contracts' schemas, filter names included, before any
 * request is made, and every problem of a call is reported in one answer (tool-arguments.ts):
 * nothing is charged for a malformed call (its JSON-RPC message was counted, as every message is).
 */
import { ACCOUNT_TOOLS } from './account-tools.js';
import { ASYNC_SEARCH_TOOLS } from './async-search-tools.js';
import { JOB_TOOLS } from './job-tools.js';
import type { McpTool } from './mcp-tool.js';
import { publishedSchema } from './published-schema.js';
import { WATCH_TOOLS } from './watch-tools.js';
import { WEBHOOK_TOOLS } from './webhook-tools.js';

export { queryString, type ApiAnswer, type ApiCall, type McpTool, type ToolHints } from './mcp-tool.js';
export { PUBLISHED_OUTLINES } from './tool-inputs.js';
export { WatchDeletedSchema } from './watch-tools.js';

/** Every tool, in the order of the tool list and of the guide's table. */
export const MCP_TOOLS: readonly McpTool[] = [
  ...JOB_TOOLS,
  ...ASYNC_SEARCH_TOOLS,
  ...ACCOUNT_TOOLS,
  ...WATCH_TOOLS,
  ...WEBHOOK_TOOLS,
];

/** "`job_id` (required)", "`cursor`": a tool's arguments in the order of its schema. */
export function argumentList(tool: McpTool): string {
  const names = Object.keys(tool.input.shape);
  if (names.length === 0) return 'none';
  const required = new Set((publishedSchema(tool.input, 'input')['required'] as string[] | undefined) ?? []);
  return names.map((name) => `\`${name}\`${required.has(name) ? ' (required)' : ''}`).join(', ');
}

/** The tool table of the MCP guide, libs/docs-site/guides/mcp.md (kept equal by mcp-docs.spec.ts). */
export function renderToolTable(): string {
  const rows = MCP_TOOLS.map(
    (tool) => `| \`${tool.name}\` | ${argumentList(tool)} | ${tool.purpose} | \`${tool.endpoint}\` | ${tool.cost} |`,
  );
  return ['| Tool | Arguments | What it does | API call | Cost |', '|---|---|---|---|---|', ...rows].join('\n');
}
