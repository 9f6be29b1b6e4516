// Shared by the MCP specs: the official SDK's client over Streamable HTTP with a bearer key, and
// plain JSON-RPC requests whose answers are measured to the byte.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { stack } from './stack.js';

/** One JSON-RPC request to /mcp with plain fetch: the answer's status and its body's exact bytes. */
export async function rawMcp(
  key: string,
  method: string,
  params: Record<string, unknown> = {},
): Promise<{ status: number; bytes: number; body: { result?: Record<string, unknown> } }> {
  const response = await fetch(`${stack.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const buffer = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    bytes: buffer.length,
    body: JSON.parse(buffer.toString('utf8')) as { result?: Record<string, unknown> },
  };
}
export const TOOLS = [
  'estimate_search',
  'search_jobs',
  'get_job',
  'get_company_profile',
  'start_async_search',
  'get_async_search',
  'get_account',
  'list_providers',
  'list_ledger_entries',
  'create_watch',
  'list_watches',
  'delete_watch',
  'list_events',
  'replay_event',
  'list_webhook_endpoints',
  'get_webhook_secret',
  'rotate_webhook_secret',
];

export async function connect(key: string | undefined): Promise<Client> {
  const client = new Client({ name: 'mcp-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp`), {
    requestInit: { headers: key === undefined ? {} : { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export function text(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}
