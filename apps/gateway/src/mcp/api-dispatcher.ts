import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { HEADERS } from '@jobs/contracts';
import { sendCounted } from '../limits/counted-requests.js';
import type { ApiAnswer, ApiCall } from './mcp-tools.js';

/** Who is calling through MCP: what the MCP request carried that each API request must carry too. */
export interface McpCaller {
  /** The caller's own `Authorization` header, passed on as is. */
  authorization: string;
  /** `Service-Version`, when the MCP request sent one. */
  serviceVersion?: string;
  /** The caller's address, so per-address rules and logs see the caller, not the gateway. */
  ip: string;
}

/**
 * Runs an MCP tool's API request through this gateway's own HTTP pipeline (Fastify `inject`,
 * no socket): the router, the version guard, the API-key guard, admission, Idempotency-Key,
 * validation, the use case, billing and the error envelope are exactly those of the public API,
 * as if the caller had sent the request itself. The rate limit counted the tool call as its
 * JSON-RPC message when the MCP POST came in, so the request is sent as counted already
 * (`sendCounted`): a tool call counts once. Nothing here decides anything.
 */
@Injectable()
export class ApiDispatcher {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async send(caller: McpCaller, call: ApiCall): Promise<ApiAnswer> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const headers: Record<string, string> = { authorization: caller.authorization, 'user-agent': 'jobs-mcp' };
    if (caller.serviceVersion !== undefined) headers[HEADERS.serviceVersion.toLowerCase()] = caller.serviceVersion;
    if (call.idempotencyKey !== undefined) headers[HEADERS.idempotencyKey.toLowerCase()] = call.idempotencyKey;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const response = await sendCounted(() =>
      fastify.inject({
        method: call.method,
        url: call.url,
        headers,
        remoteAddress: caller.ip,
        ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
      }),
    );
    const answerHeaders: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined)
        answerHeaders[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    return { status: response.statusCode, headers: answerHeaders, body: parseJson(response.body) };
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
