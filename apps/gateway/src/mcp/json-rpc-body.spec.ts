import { readJsonRpcBody, MAX_JSON_RPC_BATCH } from './json-rpc-body.js';

describe('readJsonRpcBody', () => {
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

  it('lets JSON-RPC messages and batches up to the bound through, counting each message', () => {
    expect(readJsonRpcBody(call)).toEqual({ messages: 1 });
    expect(readJsonRpcBody({ jsonrpc: '2.0', method: 'notifications/initialized' })).toEqual({ messages: 1 });
    expect(readJsonRpcBody([call, { ...call, id: 2 }])).toEqual({ messages: 2 });
    const full = Array.from({ length: MAX_JSON_RPC_BATCH }, (_, id) => ({ ...call, id }));
    expect(readJsonRpcBody(full)).toEqual({ messages: MAX_JSON_RPC_BATCH });
  });

  it('refuses a batch past the bound, saying the bound, as one request', () => {
    const reading = readJsonRpcBody(Array.from({ length: MAX_JSON_RPC_BATCH + 1 }, () => call));
    expect(reading.messages).toBe(1);
    expect(reading.refusal).toMatchObject({ code: 'invalid_request', extras: { param: 'body' } });
    expect(reading.refusal?.message).toBe(
      `A batch holds at most ${MAX_JSON_RPC_BATCH} JSON-RPC messages; this one holds ${MAX_JSON_RPC_BATCH + 1}. ` +
        'Send the others in further POSTs.',
    );
  });

  it('refuses a batch whose requests share an id (one would answer for the other), as one request', () => {
    const reading = readJsonRpcBody([call, { ...call, method: 'tools/call' }]);
    expect(reading.messages).toBe(1);
    expect(reading.refusal).toMatchObject({ code: 'invalid_request', extras: { param: 'body' } });
    // notifications carry no id; 1 and "1" are two ids
    const notification = { jsonrpc: '2.0', method: 'notifications/initialized' };
    expect(readJsonRpcBody([notification, notification, call, { ...call, id: '1' }])).toEqual({ messages: 4 });
  });

  it('refuses a batch that cancels a request (the POST would never be answered), as one request', () => {
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    const reading = readJsonRpcBody([call, cancel]);
    expect(reading.messages).toBe(1);
    expect(reading.refusal).toMatchObject({ code: 'invalid_request', extras: { param: 'body' } });
    expect(reading.refusal?.message).toMatch(/^A batch cannot cancel its own requests/);
    // alone, a cancellation names nothing this stateless server runs: the transport acknowledges it
    expect(readJsonRpcBody(cancel)).toEqual({ messages: 1 });
  });

  it('refuses anything else with invalid_request on the body, as one request', () => {
    for (const body of [
      undefined,
      null,
      'text',
      42,
      {},
      { jsonrpc: '1.0', method: 'x' },
      { filters: { title_or: ['a'] } },
      [],
      [call, 'text'],
      { jsonrpc: '2.0', method: 'm'.repeat(300) },
    ]) {
      const reading = readJsonRpcBody(body);
      expect(reading.messages).toBe(1);
      expect(reading.refusal).toMatchObject({ code: 'invalid_request', extras: { param: 'body' } });
    }
  });
});
