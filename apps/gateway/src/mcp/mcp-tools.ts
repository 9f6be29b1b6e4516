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
 * bounds before any request is made (nothing is charged for a malformed call; its JSON-RPC
 * message was counted, as every message is).
 */
import { JOB_TOOLS } from './job-tools.js';
import type { McpTool } from './mcp-tool.js';
import { WATCH_TOOLS } from './watch-tools.js';

export { queryString, type ApiAnswer, type ApiCall, type McpTool, type ToolHints } from './mcp-tool.js';
export { PUBLISHED_OUTLINES } from './tool-inputs.js';
export { WatchDeletedSchema } from './watch-tools.js';

/** Every tool, in the order of the tool list and of the guide's table. */
export const MCP_TOOLS: readonly McpTool[] = [...JOB_TOOLS, ...WATCH_TOOLS];

/** The tool table of the MCP guide, libs/docs-site/guides/mcp.md (kept equal by mcp-docs.spec.ts). */
export function renderToolTable(): string {
  const rows = MCP_TOOLS.map((tool) => `| \`${tool.name}\` | ${tool.purpose} | \`${tool.endpoint}\` | ${tool.cost} |`);
  return ['| Tool | What it does | API call | Cost |', '|---|---|---|---|', ...rows].join('\n');
}
