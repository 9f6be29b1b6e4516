/**
 * Turns the HTTP API's answer to a tool's request into the tool's MCP result: the structured
 * result as `structuredContent` (checked against the tool's output schema) and, as text, the
 * tool's summary of it (what came back, what it cost, the ids to act on), or a tool error
 * (`isError: true`) whose message carries the API's error code, its message and details, and the
 * request id to quote to support. Plain functions.
 *
 * The text is a summary, not the JSON again: the MCP specification suggests repeating the
 * structured content as serialized JSON for clients of revisions before it existed, but a client
 * that shows a model both doubles what the model reads. A client that reads only text still gets
 * every id and the facts to choose the next call (guides/mcp.md, "Results").
 */
import { z } from 'zod';
import { ErrorEnvelopeSchema, HEADERS, type ErrorBody } from '@jobs/contracts';
import type { ApiAnswer, McpTool } from './mcp-tools.js';

/** The shape of an MCP `CallToolResult` this server returns (text blocks, structured content). */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function toolError(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The MCP result of `answer`, the API's answer to `tool`'s request for `args`. */
export function toolResult(
  tool: McpTool,
  args: Record<string, unknown>,
  answer: ApiAnswer,
  idempotencyKey?: string,
): ToolResult {
  if (answer.status < 200 || answer.status >= 300) return toolError(describeFailure(tool.name, answer, idempotencyKey));
  let content: unknown;
  try {
    content = tool.result ? tool.result(answer, args) : answer.body;
  } catch (error) {
    // a result built from the answer checks the answer against its contract first
    if (!(error instanceof z.ZodError)) throw error;
    return brokenContract(tool, answer, error);
  }
  const checked = tool.output.safeParse(content);
  if (!checked.success) return brokenContract(tool, answer, checked.error);
  return {
    content: [{ type: 'text', text: tool.summary(checked.data, answer) }],
    structuredContent: content as Record<string, unknown>,
  };
}

function brokenContract(tool: McpTool, answer: ApiAnswer, error: z.ZodError): ToolResult {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return toolError(
    `internal_error: the API's answer to ${tool.name} does not ` +
      `match its published schema ` +
      `(${issue?.message ?? 'invalid'}${where}). [request_id: ` +
      `${requestIdOf(answer)}]`,
  );
}

/**
 * One line a model can act on, e.g.
 * `unknown_filter (HTTP 400): Unknown filter "titel_or"; did you mean "title_or"? [param: filters.titel_or]
 * [request_id: req_...]`.
 */
export function describeFailure(toolName: string, answer: ApiAnswer, idempotencyKey?: string): string {
  const envelope = ErrorEnvelopeSchema.safeParse(answer.body);
  if (!envelope.success) {
    return (
      `internal_error (HTTP ${answer.status}): the API gave ` +
      `${toolName} an answer without its error ` +
      `envelope.${retryHint('internal_error', idempotencyKey)} ` +
      `[request_id: ${requestIdOf(answer)}]`
    );
  }
  const error: ErrorBody = envelope.data.error;
  const details: string[] = [];
  if (error.param !== undefined) details.push(`param: ${error.param}`);
  if (error.credits_needed !== undefined) details.push(`credits_needed: ${error.credits_needed}`);
  if (error.required_plan !== undefined) details.push(`required_plan: ${error.required_plan}`);
  if (error.upgrade_url !== undefined) details.push(`upgrade_url: ${error.upgrade_url}`);
  const retryAfter = answer.headers[HEADERS.retryAfter.toLowerCase()];
  if (retryAfter !== undefined) details.push(`retry_after_seconds: ${retryAfter}`);
  details.push(`request_id: ${error.request_id}`);
  const message = error.message.trim();
  return (
    `${error.code} (HTTP ${answer.status}): ` +
    `${message}${/[.!?]$/.test(message) ? '' : '.'}${retryHint(error.code, idempotencyKey)} ` +
    `${details.map((d) => `[${d}]`).join(' ')}`
  );
}

/** After a service-side failure the same call is safe to repeat with the same key. */
function retryHint(code: string, idempotencyKey: string | undefined): string {
  if (code !== 'internal_error') return '';
  return idempotencyKey === undefined
    ? ' Safe to retry.'
    : ` Retry with idempotency_key "${idempotencyKey}": the call then never runs or charges twice.`;
}

function requestIdOf(answer: ApiAnswer): string {
  return answer.headers['x-request-id'] ?? 'unknown';
}
