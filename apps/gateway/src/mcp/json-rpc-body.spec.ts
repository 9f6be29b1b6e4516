import { ApiError } from '../http/api-error.js';
import { checkJsonRpcBody, MAX_JSON_RPC_BATCH } from './json-rpc-body.js';

describe('checkJsonRpcBody', () => {
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

  it('lets JSON-RPC messages and small batches through to the transport', () => {
    expect(() => checkJsonRpcBody(call)).not.toThrow();
    expect(() => checkJsonRpcBody({ jsonrpc: '2.0', method: 'notifications/initialized' })).not.toThrow();
    expect(() => checkJsonRpcBody([call, { ...call, id: 2 }])).not.toThrow();
  });

  it('refuses anything else with invalid_request on the body', () => {
    for (const body of [
      undefined,
      null,
      'text',
      42,
      {},
      { jsonrpc: '1.0', method: 'x' },
      { filters: { title_or: ['a'] } },
      [],
      Array.from({ length: MAX_JSON_RPC_BATCH + 1 }, () => call),
      { jsonrpc: '2.0', method: 'm'.repeat(300) },
    ]) {
      expect(() => checkJsonRpcBody(body)).toThrow(ApiError);
    }
  });
});
