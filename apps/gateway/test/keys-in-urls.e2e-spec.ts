import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorEnvelopeSchema } from '@jobs/contracts';
import { createAccount, stack, traceViewer, type TraceViewer, type ViewerSpan } from './stack.js';

/**
 * API keys never travel in URLs, and never in telemetry (docs/security.md, "API keys in URLs"):
 * a request whose URL carries a key, under any parameter name or in its path, with or without the
 * key in the header too, on the REST API, MCP, the sandbox, the docs and the dashboard API, is
 * refused with 400 `invalid_request` naming where, before the key is looked up (a revoked or
 * unknown key in the URL is a 400, not a 401; the account's rate limit counts nothing). Then the
 * trace viewer's copy of every one of those requests, and of an admin call that names a key in its
 * path, holds no key anywhere; neither do the services' logs nor the gateway's metrics.
 *
 * The test stack records only traces a caller asks for, so every request sends a sampled
 * `traceparent`; the answer's `traceparent` names the trace the gateway recorded.
 */
const TRACEPARENT = /^00-([0-9a-f]{32})-[0-9a-f]{16}-01$/;
const VIEWER_DEADLINE_MS = 20_000;
const RATE_LIMIT = 50;

let viewer: TraceViewer;

beforeAll(async () => {
  viewer = await traceViewer();
}, 240_000);
afterAll(async () => {
  await viewer?.release();
});

const sampled = () => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;

interface Sent {
  what: string;
  status: number;
  param: string | undefined;
  message: string;
  body: string;
  traceId: string;
}

/** One request to the public port with a sampled traceparent; its answer and the trace the gateway recorded. */
async function send(
  what: string,
  path: string,
  init: { method?: string; key?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Sent> {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      traceparent: sampled(),
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body,
  });
  const body = await res.text();
  const traceId = TRACEPARENT.exec(res.headers.get('traceparent') ?? '')?.[1];
  if (!traceId) throw new Error(`${what}: no sampled traceparent in the answer (${res.headers.get('traceparent')})`);
  const envelope = ErrorEnvelopeSchema.safeParse(body ? JSON.parse(body) : null);
  return {
    what,
    status: res.status,
    param: envelope.success ? envelope.data.error.param : undefined,
    message: envelope.success ? envelope.data.error.message : '',
    body,
    traceId,
  };
}

/** Each trace's spans once the viewer holds the gateway's request span of every one (polled to the deadline). */
async function tracesOf(traceIds: string[]): Promise<Map<string, ViewerSpan[]>> {
  const deadline = Date.now() + VIEWER_DEADLINE_MS;
  const traces = new Map<string, ViewerSpan[]>();
  for (const traceId of traceIds) {
    for (;;) {
      const spans = await viewer.trace(traceId);
      const held = spans.some((span) => span.kind === 'SERVER' && span.localEndpoint?.serviceName === 'gateway');
      if (held || Date.now() > deadline) {
        traces.set(traceId, spans);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return traces;
}

const MCP_INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'keys-in-urls', version: '1' } },
});
const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

describe('API keys in URLs', () => {
  it(
    'are refused with 400 invalid_request naming the parameter on every route, before the key is read, ' +
      'and no key reaches the trace viewer, the logs or the metrics',
    async () => {
      const account = await createAccount({
        plan: 'pro',
        credits: 10,
        rate_limit: { limit: RATE_LIMIT, window_seconds: 60 },
      });
      const key = account.live_key;
      const testKey = account.test_key;
      // A second key, named in an admin call's path (revocation) and then sent revoked in a URL.
      const minted = await fetch(`${stack.adminUrl}/admin/accounts/${account.account_id}/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'live' }),
      });
      expect(minted.status).toBe(201);
      const revoked = ((await minted.json()) as { key: string }).key;
      const revocation = await fetch(`${stack.adminUrl}/admin/keys/${revoked}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${stack.adminToken}`, traceparent: sampled() },
      });
      expect(revocation.status).toBe(204);
      const adminTraceId = TRACEPARENT.exec(revocation.headers.get('traceparent') ?? '')![1]!;
      const unknown = `svc_live_${randomBytes(16).toString('hex')}`;
      const keys = [key, testKey, revoked, unknown];

      const refused = [
        await send('REST, ?api_key= and the header', `/v1/account?api_key=${key}`, { key }),
        await send('REST, ?api_key= alone', `/v1/account?api_key=${key}`),
        await send('REST, another name and the header', `/v1/account?limit=5&access=${key}`, { key }),
        await send('REST, another name alone, test key', `/v1/billing/ledger?x-token=${testKey}`),
        await send('REST, percent-encoded', `/v1/account?k=${key.replace(/_/g, '%5F')}`, { key }),
        await send('REST, the key as a parameter name', `/v1/account?${key}`, { key }),
        await send('REST, in the path', `/v1/jobs/${key}`, { key }),
        await send('REST, a revoked key', `/v1/account?api_key=${revoked}`),
        await send('REST, an unknown key', `/v1/account?api_key=${unknown}`),
        await send('MCP, ?api_key= and the header', `/mcp?api_key=${key}`, {
          key,
          headers: MCP_HEADERS,
          body: MCP_INITIALIZE,
        }),
        await send('MCP, another name alone', `/mcp?auth=${key}`, { headers: MCP_HEADERS, body: MCP_INITIALIZE }),
        await send('sandbox', `/v1/sandbox/jobs/search?api_key=${key}`, {
          body: JSON.stringify({ filters: { title_or: ['engineer'] } }),
        }),
        await send('docs', `/docs/errors?key=${key}`),
        await send('dashboard API', `/dashboard/api/session?key=${key}`),
      ];
      const expectedParam: Record<string, string> = {
        'REST, ?api_key= and the header': 'api_key',
        'REST, ?api_key= alone': 'api_key',
        'REST, another name and the header': 'access',
        'REST, another name alone, test key': 'x-token',
        'REST, percent-encoded': 'k',
        'REST, the key as a parameter name': 'query',
        'REST, in the path': 'path',
        'REST, a revoked key': 'api_key',
        'REST, an unknown key': 'api_key',
        'MCP, ?api_key= and the header': 'api_key',
        'MCP, another name alone': 'auth',
        sandbox: 'api_key',
        docs: 'key',
        'dashboard API': 'key',
      };
      expect(Object.fromEntries(refused.map((sent) => [sent.what, `${sent.status} ${sent.param}`]))).toEqual(
        Object.fromEntries(Object.entries(expectedParam).map(([what, param]) => [what, `400 ${param}`])),
      );
      for (const sent of refused) {
        expect(sent.message).toContain('Authorization header');
        for (const secret of keys) expect(sent.body).not.toContain(secret);
      }

      // Nothing was counted against the account: its first counted request sees a full window.
      const account200 = await send('REST, the key in the header only', '/v1/account', { key });
      expect(account200.status).toBe(200);
      const counted = await fetch(`${stack.baseUrl}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
      expect(counted.headers.get('ratelimit-remaining')).toBe(String(RATE_LIMIT - 2));

      // The trace viewer's copy: every refused request's trace, the admin revocation's, the 200's.
      const traceIds = [...refused.map((sent) => sent.traceId), adminTraceId, account200.traceId];
      const traces = await tracesOf(traceIds);
      const missing = traceIds.filter((traceId) => (traces.get(traceId) ?? []).length === 0);
      expect(missing).toEqual([]);
      const stored = JSON.stringify([...traces.values()]);
      for (const secret of keys) expect(stored).not.toContain(secret);
      // The URLs were recorded, with the secrets taken out.
      const requestSpan = (traceId: string) =>
        traces.get(traceId)!.find((span) => span.kind === 'SERVER' && span.localEndpoint?.serviceName === 'gateway')!;
      expect(requestSpan(refused[0]!.traceId).tags).toMatchObject({
        'url.query': 'api_key=REDACTED',
        'http.response.status_code': '400',
      });
      expect(requestSpan(refused[6]!.traceId).tags).toMatchObject({ 'url.path': '/v1/jobs/REDACTED' });
      expect(requestSpan(adminTraceId).tags).toMatchObject({ 'url.path': '/admin/keys/REDACTED' });

      // The services' logs and the gateway's metrics (its admin port's tokenless /metrics).
      const logDir = process.env['STACK_LOG_DIR'];
      if (logDir) {
        for (const file of readdirSync(logDir).filter((name) => name.endsWith('.log'))) {
          const log = readFileSync(join(logDir, file), 'utf8');
          for (const secret of keys) expect({ file, holds: log.includes(secret) }).toEqual({ file, holds: false });
        }
      }
      const metrics = await (await fetch(`${stack.adminUrl}/metrics`)).text();
      expect(metrics).toContain('http_route="/v1/jobs/:id"');
      for (const secret of [...keys, account.account_id, 'process_command_args']) expect(metrics).not.toContain(secret);
    },
  );
});
