import type { z } from 'zod';

/** One request to the HTTP API, as the gateway's router sees it. */
export interface ApiCall {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path and query, from the public root (`/v1/...`). */
  url: string;
  body?: unknown;
  /** Sent as `Idempotency-Key` (POSTs that create or charge). */
  idempotencyKey?: string;
}

/** What the HTTP API answered. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string | undefined>;
  /** Parsed JSON, or undefined for an empty body. */
  body: unknown;
}

/** MCP tool annotations (hints for clients, never a security boundary). */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * The hints as published: those that differ from the MCP defaults (not read-only, destructive,
 * not idempotent, open world) and mean something (a read-only tool is neither destructive nor
 * not), so a client reads the same as from all four.
 */
export function publishedHints(hints: ToolHints): ToolHints {
  const published: ToolHints = {};
  if (hints.readOnlyHint === true) published.readOnlyHint = true;
  else {
    if (hints.destructiveHint === false) published.destructiveHint = false;
    if (hints.idempotentHint === true) published.idempotentHint = true;
  }
  if (hints.openWorldHint === false) published.openWorldHint = false;
  return published;
}

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface McpTool<I extends AnyObject = AnyObject, O extends AnyObject = AnyObject> {
  name: string;
  title: string;
  /** The API endpoint it calls, for the docs. */
  endpoint: string;
  /** What it does in a few words, for the docs. */
  purpose: string;
  /** One line on what a call costs, for the docs. */
  cost: string;
  /** What a model reads: what the tool does, what it costs and when it is free. */
  description: string;
  input: I;
  output: O;
  hints: ToolHints;
  /**
   * The API request for these (validated) arguments. `newKey` makes an Idempotency-Key for a
   * POST whose caller gave none.
   */
  request(args: z.output<I>, newKey: () => string): ApiCall;
  /** The structured result of a 2xx answer (default: its body). */
  result?(answer: ApiAnswer, args: z.output<I>): unknown;
  /** One sentence a model reads first: what came back and what it cost. */
  summary(content: z.output<O>, answer: ApiAnswer): string;
}

export function tool<I extends AnyObject, O extends AnyObject>(definition: McpTool<I, O>): McpTool {
  return definition as unknown as McpTool;
}

/** `?a=1&b=2` from the defined entries, or '' when none. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const entries = Object.entries(params).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  if (entries.length === 0) return '';
  return `?${new URLSearchParams(entries.map(([name, value]): [string, string] => [name, String(value)])).toString()}`;
}
