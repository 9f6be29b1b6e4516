import { z } from 'zod';
import { ApiError } from '../http/api-error.js';

/**
 * Messages in one batch, at most. Each counts against the rate limit, and a batch's answers are
 * built and sent as one: the bound keeps a POST's answer to ten answers (each may be a whole tool
 * list). MCP clients send one message at a time (revision 2025-06-18 dropped batches).
 */
export const MAX_JSON_RPC_BATCH = 10;

/** The envelope of a JSON-RPC 2.0 message; what is inside is the MCP transport's to check. */
const JsonRpcMessage = z.looseObject({
  jsonrpc: z.literal('2.0'),
  method: z.string().max(256).optional(),
  id: z.union([z.string().max(256), z.number(), z.null()]).optional(),
});
const JsonRpcBody = z.union([JsonRpcMessage, z.array(JsonRpcMessage).min(1).max(MAX_JSON_RPC_BATCH)]);

/** What the rate limit counts for a POST (one per message), and why it is refused if it is. */
export interface JsonRpcBodyReading {
  messages: number;
  refusal?: ApiError;
}

/**
 * A body that is not JSON-RPC at all, or a batch past the bound, is refused with the API's error
 * envelope (400 `invalid_request`, `param: "body"`), like every other route's, and counts as one
 * request, as a refused API request does; a well-formed JSON-RPC message that MCP cannot serve
 * gets the transport's JSON-RPC error, as MCP clients expect.
 */
export function readJsonRpcBody(body: unknown): JsonRpcBodyReading {
  if (Array.isArray(body) && body.length > MAX_JSON_RPC_BATCH) {
    const refusal = new ApiError(
      'invalid_request',
      `A batch holds at most ${MAX_JSON_RPC_BATCH} JSON-RPC messages; this one holds ${body.length}. ` +
        'Send the others in further POSTs.',
      { param: 'body' },
    );
    return { messages: 1, refusal };
  }
  if (!JsonRpcBody.safeParse(body).success) {
    const refusal = new ApiError(
      'invalid_request',
      `Send one JSON-RPC 2.0 message (or a batch of up to ${MAX_JSON_RPC_BATCH}) as the body.`,
      { param: 'body' },
    );
    return { messages: 1, refusal };
  }
  if (Array.isArray(body) && hasRepeatedIds(body as { id?: unknown }[])) {
    const refusal = new ApiError(
      'invalid_request',
      'Each request of a batch needs an id of its own: two of this batch share one.',
      { param: 'body' },
    );
    return { messages: 1, refusal };
  }
  if (Array.isArray(body) && body.length > 1 && body.some(isCancellation)) {
    const refusal = new ApiError(
      'invalid_request',
      'A batch cannot cancel its own requests: this server keeps no sessions, so a cancellation can only ' +
        'name a request of the same POST, whose answer the POST would then never carry. Send it alone.',
      { param: 'body' },
    );
    return { messages: 1, refusal };
  }
  return { messages: Array.isArray(body) ? body.length : 1 };
}

/**
 * A cancellation. Sent beside the request it names, the transport drops that request's answer
 * and waits for it without end: the POST would hold the account's place among its MCP work for good.
 */
function isCancellation(message: { method?: unknown }): boolean {
  return message.method === 'notifications/cancelled';
}

/**
 * Whether two requests of a batch share an id. The transport keys its answers by id, so the
 * second would be answered by the first, its work running on unseen (and charged) after the POST
 * was answered and its place among the account's MCP work let go.
 */
function hasRepeatedIds(batch: readonly { id?: unknown }[]): boolean {
  const ids = batch.filter((message) => message.id !== undefined && message.id !== null).map(({ id }) => id);
  return new Set(ids).size < ids.length;
}
