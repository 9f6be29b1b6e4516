/**
 * The answer to a POST whose every message is a plain `tools/list` request, from the tool list
 * serialized once per process. The list is the same for every caller; answered through the SDK
 * it is serialized again for each message, the largest cost of a `tools/list` and what makes a
 * batch of them expensive. The answer is the one the SDK's transport gives, byte
 * for byte (tool-list-answer.spec.ts compares the two); any body or header not recognised here as
 * such a request (another method, other params, an unsupported protocol version, a client that
 * does not accept JSON and event streams) is the SDK's to answer, as before.
 *
 * The list is kept as UTF-8 bytes and an answer is put together from bytes: a string of ten lists
 * built per request would be encoded again on every write (it cost more than the rest of the
 * answer together).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { publishedTools, type Sdk } from './mcp-server.js';

let serializedList: Buffer | undefined;

/** The JSON-RPC answers' body, or undefined when the SDK must answer this POST. */
export function toolListAnswer(sdk: Sdk, headers: IncomingHttpHeaders, body: unknown): Buffer | undefined {
  if (!acceptsJson(headers) || !speaksSupportedVersion(sdk, headers)) return undefined;
  const messages = Array.isArray(body) ? (body as unknown[]) : [body];
  const ids: Array<string | number> = [];
  for (const message of messages) {
    if (!isPlainToolList(sdk, message) || ids.includes(message.id)) return undefined;
    ids.push(message.id);
  }
  serializedList ??= Buffer.from(JSON.stringify({ tools: publishedTools() }));
  const list = serializedList;
  const parts: Buffer[] = [];
  const batch = Array.isArray(body);
  ids.forEach((id, i) => {
    parts.push(Buffer.from(`${batch ? (i === 0 ? '[' : ',') : ''}{"result":`), list);
    parts.push(Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(id)}}${batch && i === ids.length - 1 ? ']' : ''}`));
  });
  return Buffer.concat(parts);
}

/**
 * JSON-RPC 2.0 answers a batch with an array, a batch of one included; the SDK's transport
 * answers a batch of one with the bare object, which a strict client fails to match.
 */
export function batchShaped(body: unknown, answer: Buffer): Buffer {
  if (!Array.isArray(body) || answer[0] !== 0x7b /* { */) return answer;
  return Buffer.concat([Buffer.from('['), answer, Buffer.from(']')]);
}

function acceptsJson(headers: IncomingHttpHeaders): boolean {
  const accept = headers.accept;
  const contentType = headers['content-type'];
  return (
    typeof accept === 'string' &&
    accept.includes('application/json') &&
    accept.includes('text/event-stream') &&
    typeof contentType === 'string' &&
    /^application\/json\s*(;|$)/i.test(contentType)
  );
}

function speaksSupportedVersion(sdk: Sdk, headers: IncomingHttpHeaders): boolean {
  const version = headers['mcp-protocol-version'];
  return version === undefined || (typeof version === 'string' && sdk.protocolVersions.includes(version));
}

/** A `tools/list` request with no params, empty params or a cursor only (the list has one page). */
function isPlainToolList(sdk: Sdk, message: unknown): message is { id: string | number } {
  if (!sdk.isJsonRpcRequest(message) || message.method !== 'tools/list') return false;
  const params: unknown = message.params;
  if (params === undefined) return true;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
  return Object.entries(params).every(([name, value]) => name === 'cursor' && typeof value === 'string');
}
