import { z } from 'zod';
import { ApiError } from '../http/api-error.js';

/** Messages in one batch, at most: a client sends one at a time; more is no MCP client's doing. */
export const MAX_JSON_RPC_BATCH = 32;

/** The envelope of a JSON-RPC 2.0 message; what is inside is the MCP transport's to check. */
const JsonRpcMessage = z.looseObject({
  jsonrpc: z.literal('2.0'),
  method: z.string().max(256).optional(),
  id: z.union([z.string().max(256), z.number(), z.null()]).optional(),
});
const JsonRpcBody = z.union([JsonRpcMessage, z.array(JsonRpcMessage).min(1).max(MAX_JSON_RPC_BATCH)]);

/**
 * A body that is not JSON-RPC at all is refused here with the API's error envelope (400
 * `invalid_request`, `param: "body"`), like every other route's; a well-formed JSON-RPC message
 * that MCP cannot serve gets the transport's JSON-RPC error, as MCP clients expect.
 */
export function checkJsonRpcBody(body: unknown): void {
  if (!JsonRpcBody.safeParse(body).success) {
    throw new ApiError(
      'invalid_request',
      `Send one JSON-RPC 2.0 message (or a batch of up to ${MAX_JSON_RPC_BATCH}) as the body.`,
      { param: 'body' },
    );
  }
}
