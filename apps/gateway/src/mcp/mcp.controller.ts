import { Controller, Delete, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HEADERS } from '@jobs/contracts';
import type { Principal } from '../auth/api-key.js';
import { ApiKeyService } from '../auth/api-key.service.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { requestProtocol } from '../dashboard/dashboard-cookie.js';
import { sameOrigin } from '../dashboard/dashboard-session.js';
import { ApiError } from '../http/api-error.js';
import { RateLimitGate } from '../limits/rate-limit.gate.js';
import { ApiDispatcher, type McpCaller } from './api-dispatcher.js';
import { readJsonRpcBody } from './json-rpc-body.js';
import { buildMcpServer, loadSdk, MCP_SERVER_NAME } from './mcp-server.js';
import { McpWorkGate } from './mcp-work.gate.js';
import { batchShaped, toolListAnswer } from './tool-list-answer.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The MCP server on the public port: Streamable HTTP, stateless (no session: any replica answers
 * any request, nothing is kept between requests), JSON responses. Each POST is authenticated
 * with the caller's API key (401 with `WWW-Authenticate: Bearer` otherwise), counted in the
 * account's rate limit, one request per JSON-RPC message and a batch all or none (429 with
 * `Retry-After` beyond it, as the API's), let in by its account's line (McpWorkGate), then
 * answered: a POST of `tools/list` requests from the list serialized once (tool-list-answer.ts),
 * anything else by a server built for that request, whose tools send their API requests through
 * this gateway's own pipeline with the caller's key (ApiDispatcher), counted already.
 * GET (a server-initiated event stream) and DELETE (ending a session) have nothing to offer
 * without sessions: 405, as the transport specification allows.
 */
@Controller('mcp')
export class McpController {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly dispatcher: ApiDispatcher,
    private readonly rateLimit: RateLimitGate,
    private readonly work: McpWorkGate,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post()
  async post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const { caller, principal } = await this.authenticate(request, reply);
    const body = readJsonRpcBody(request.body);
    await this.rateLimit.countBatch(principal, reply, body.messages);
    if (body.refusal) throw body.refusal;
    const release = await this.work.pass(principal, body.messages, reply);
    try {
      await this.answer(request, reply, caller);
    } finally {
      release();
    }
  }

  private async answer(request: FastifyRequest, reply: FastifyReply, caller: McpCaller): Promise<void> {
    const sdk = await loadSdk();
    const toolList = toolListAnswer(sdk, request.headers, request.body);
    if (toolList !== undefined) {
      await reply.status(200).header('content-type', 'application/json').send(toolList);
      return;
    }
    const server = buildMcpServer(sdk, (call) => this.dispatcher.send(caller, call));
    const transport = new sdk.Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
      await sendWebResponse(reply, response, request.body);
    } finally {
      await server.close();
    }
  }

  @Get()
  async openStream(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.authenticate(request, reply);
    methodNotAllowed(reply, 'This MCP server is stateless and sends no server-initiated stream: POST requests only.');
  }

  @Delete()
  async endSession(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.authenticate(request, reply);
    methodNotAllowed(reply, 'This MCP server is stateless: there is no session to end.');
  }

  /**
   * The same bearer key as the HTTP API; anything missing, malformed or revoked is 401. A request
   * a browser sent from another origin is 403 first (the transport specification's guard against
   * DNS rebinding); clients that send no `Origin` (every MCP client but a web page) pass.
   */
  private async authenticate(
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ caller: McpCaller; principal: Principal }> {
    const origin = request.headers.origin;
    const host = request.headers.host;
    if (origin !== undefined && !sameOrigin({ origin, host }, requestProtocol(request, this.config)))
      throw new ApiError('unauthorized', 'This MCP server does not answer pages of other origins.', {}, {}, 403);
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? BEARER.exec(header) : null;
    if (!match) {
      throw new ApiError(
        'unauthorized',
        'Send your API key as "Authorization: Bearer <key>".',
        {},
        { 'WWW-Authenticate': `Bearer realm="${MCP_SERVER_NAME}"` },
      );
    }
    const principal = await this.keys.resolve(match[1]!, this.rateLimit.keyLookups(request, reply));
    if (!principal) {
      throw new ApiError(
        'unauthorized',
        'This API key is unknown, malformed or revoked.',
        {},
        {
          'WWW-Authenticate':
            `Bearer realm="${MCP_SERVER_NAME}", error="invalid_token", ` +
            `error_description="The API key is unknown, malformed or ` +
            `revoked"`,
        },
      );
    }
    const version = request.headers[HEADERS.serviceVersion.toLowerCase()];
    const caller = {
      authorization: header as string,
      ip: request.ip,
      ...(typeof version === 'string' ? { serviceVersion: version } : {}),
    };
    return { caller, principal };
  }
}

/** The Fastify request as the SDK's web-standard transport reads it (the body is passed parsed). */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(new URL(request.url, 'http://localhost'), { method: request.method, headers });
}

async function sendWebResponse(reply: FastifyReply, response: Response, requestBody: unknown): Promise<void> {
  void reply.status(response.status);
  // the length is the body's own (a batch of one's answer is put in an array)
  response.headers.forEach((value, name) => void (name === 'content-length' || reply.header(name, value)));
  // the bytes as the transport encoded them: no decoding to a string and encoding again
  const body = batchShaped(requestBody, Buffer.from(await response.arrayBuffer()));
  await reply.send(body.length === 0 ? undefined : body);
}

function methodNotAllowed(reply: FastifyReply, message: string): void {
  void reply
    .status(405)
    .header('Allow', 'POST')
    .header('content-type', 'application/json; charset=utf-8')
    .send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}
