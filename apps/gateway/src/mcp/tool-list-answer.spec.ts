import type { IncomingHttpHeaders } from 'node:http';
import { buildMcpServer, loadSdk, type Sdk } from './mcp-server.js';
import { batchShaped, toolListAnswer } from './tool-list-answer.js';

const HEADERS: IncomingHttpHeaders = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': '2025-11-25',
};
const list = (id: unknown, extra: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/list',
  ...extra,
});

/** What the SDK's transport answers the same POST, as the controller runs it. */
async function sdkAnswer(sdk: Sdk, headers: IncomingHttpHeaders, body: unknown) {
  const server = buildMcpServer(sdk, () => Promise.reject(new Error('no API here')));
  const transport = new sdk.Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const request = new Request('http://localhost/mcp', {
      method: 'POST',
      headers: Object.entries(headers).map(([name, value]) => [name, String(value)]),
    });
    const response = await transport.handleRequest(request, { parsedBody: body });
    const text = batchShaped(body, Buffer.from(await response.arrayBuffer())).toString('utf8');
    return { status: response.status, contentType: response.headers.get('content-type'), text };
  } finally {
    await server.close();
  }
}

describe('the tool list answered from memory', () => {
  let sdk: Sdk;
  beforeAll(async () => {
    sdk = await loadSdk();
  });

  it.each<[string, unknown, IncomingHttpHeaders]>([
    ['one request', list(1), HEADERS],
    ['empty params', list(7, { params: {} }), HEADERS],
    ['a cursor', list(7, { params: { cursor: 'next' } }), HEADERS],
    ['a string id that needs escaping', list('a"b\\c'), HEADERS],
    ['a batch', [list(1), list('2'), list(3, { params: {} })], HEADERS],
    ['a batch of one', [list(1)], HEADERS],
    ['no protocol version header', list(1), { ...HEADERS, 'mcp-protocol-version': undefined }],
    ['an older protocol version', list(1), { ...HEADERS, 'mcp-protocol-version': '2025-03-26' }],
    ['a charset', list(1), { ...HEADERS, 'content-type': 'application/json; charset=utf-8' }],
  ])('answers as the SDK does: %s', async (_, body, headers) => {
    const defined = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined));
    const fast = toolListAnswer(sdk, defined, body);
    expect(fast).toBeDefined();
    const answer = await sdkAnswer(sdk, defined, body);
    expect(answer).toMatchObject({ status: 200, contentType: 'application/json' });
    expect(fast?.toString('utf8')).toBe(answer.text);
  });

  it('answers a batch of one with an array, as JSON-RPC 2.0 asks', () => {
    const answer = toolListAnswer(sdk, HEADERS, [list(1)])!.toString('utf8');
    expect(JSON.parse(answer)).toEqual([expect.objectContaining({ id: 1, result: expect.anything() })]);
    expect(batchShaped(list(1), Buffer.from('{"a":1}')).toString()).toBe('{"a":1}');
    expect(batchShaped([list(1)], Buffer.from('[{"a":1}]')).toString()).toBe('[{"a":1}]');
  });

  it.each<[string, unknown, IncomingHttpHeaders]>([
    ['another method', { jsonrpc: '2.0', id: 1, method: 'ping' }, HEADERS],
    ['a batch with another method', [list(1), { jsonrpc: '2.0', id: 2, method: 'ping' }], HEADERS],
    ['a notification', { jsonrpc: '2.0', method: 'tools/list' }, HEADERS],
    ['a null id', list(null), HEADERS],
    ['a fractional id', list(1.5), HEADERS],
    ['duplicate ids', [list(1), list(1)], HEADERS],
    ['a malformed cursor', list(1, { params: { cursor: 5 } }), HEADERS],
    ['other params', list(1, { params: { _meta: { progressToken: 1 } } }), HEADERS],
    ['params that are not an object', list(1, { params: [] }), HEADERS],
    ['an unknown member', list(1, { extra: true }), HEADERS],
    ['no event streams accepted', list(1), { ...HEADERS, accept: 'application/json' }],
    ['an unsupported protocol version', list(1), { ...HEADERS, 'mcp-protocol-version': '1999-01-01' }],
    ['another content type', list(1), { ...HEADERS, 'content-type': 'text/plain' }],
  ])('leaves the rest to the SDK: %s', (_, body, headers) => {
    expect(toolListAnswer(sdk, headers, body)).toBeUndefined();
  });
});
