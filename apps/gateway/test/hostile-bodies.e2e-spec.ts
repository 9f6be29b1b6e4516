import { request } from 'node:http';
import { ErrorEnvelopeSchema } from '@jobs/contracts';
import { signIn, type DashboardSession } from './dashboard-session.js';
import { createAccount, stack } from './stack.js';

/**
 * Hostile bodies on every route that takes one (public API, admin API, MCP, dashboard API), with
 * and without Idempotency-Key: deep nesting, more than the size bound, a wrong content type, huge
 * arrays and strings. Each is refused with a 4xx and the error envelope, never a 5xx.
 */
interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One request on a connection of its own: a pooled keep-alive connection that the server closes
 * as idle just as the next request goes out would reset that request before the server saw it.
 */
function send(url: string, method: string, headers: Record<string, string>, body: string | Buffer): Promise<Raw> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      url,
      {
        method,
        headers: { 'content-length': String(Buffer.byteLength(body)), ...headers },
        localAddress: '127.0.0.78',
        agent: false,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    // a server may answer an oversized body early and close: the answer is what counts
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    // ... but a connection that ends with no answer at all fails the request, not the test's clock
    req.on('close', () => {
      if (!answered) reject(new Error(`${method} ${url}: the connection closed without an answer`));
    });
    req.end(body);
  });
}

const deepObject = (levels: number) => '{"filters":'.repeat(levels) + '{}' + '}'.repeat(levels);
const deepArray = (levels: number) => `{"filters":{"title_or":${'['.repeat(levels)}${']'.repeat(levels)}}}`;
const HOSTILE: Array<[name: string, contentType: string, body: string | Buffer]> = [
  ['nested 10,000 objects deep', 'application/json', deepObject(10_000)],
  ['nested 100,000 arrays deep', 'application/json', deepArray(100_000)],
  ['nested 40 levels (past the bound, under any stack limit)', 'application/json', deepObject(40)],
  [
    'larger than the body limit',
    'application/json',
    JSON.stringify({ filters: { title_or: ['x'.repeat(2 * 1024 * 1024)] } }),
  ],
  [
    'a huge array',
    'application/json',
    JSON.stringify({
      filters: { title_or: Array.from({ length: 150_000 }, () => 'a') },
      event_id: 'evt_x',
      plan: 'pro',
      credits: 1,
      key: 'svc_live_x',
    }),
  ],
  ['a huge string everywhere', 'application/json', JSON.stringify({ filters: { title_or: ['y'.repeat(900_000)] } })],
  ['a name of almost the whole body', 'application/json', JSON.stringify({ filters: { ['q'.repeat(1_000_000)]: 1 } })],
  ['prototype poisoning', 'application/json', '{"__proto__":{"polluted":true},"filters":{}}'],
  ['a NUL character in a string', 'application/json', '{"filters":{"job_family_or":["eng\\u0000"]},"label":"\\u0000"}'],
  ['not JSON', 'application/json', '{"filters": {'],
  ['text/plain', 'text/plain', '{"filters":{}}'],
  ['a form', 'application/x-www-form-urlencoded', 'filters=1&limit=5'],
  ['XML', 'application/xml', '<filters/>'],
  ['no content type', '', '{"filters":{}}'],
  ['null', 'application/json', 'null'],
  ['a number', 'application/json', '42'],
  ['UTF-16 declared', 'application/json; charset=utf-16', '{"filters":{}}'],
];
/** A JSON list is a body no route takes, but a JSON-RPC batch on /mcp. */
const A_LIST: [name: string, contentType: string, body: string] = ['a list', 'application/json', '[{"filters":{}}]'];
const hostileFor = (path: string) => (path === '/mcp' ? HOSTILE : [...HOSTILE, A_LIST]);

function expectRefused(res: Raw, label: string): void {
  expect({ label, status: res.status, ok: res.status >= 400 && res.status < 500 }).toEqual({
    label,
    status: res.status,
    ok: true,
  });
  const requestId = res.headers['x-request-id'];
  const envelope = ErrorEnvelopeSchema.safeParse(JSON.parse(res.text || 'null'));
  expect({ label, envelope: envelope.success }).toEqual({ label, envelope: true });
  expect(envelope.data?.error.request_id).toBe(requestId);
  // a refusal never echoes what it refuses at length: its answer costs little whatever was sent
  expect({ label, bytes: res.text.length < 4096 }).toEqual({ label, bytes: true });
}

describe('hostile bodies on every route', () => {
  let liveKey: string;
  let dashboard: DashboardSession;

  beforeAll(async () => {
    const account = await createAccount({
      plan: 'pro',
      credits: 1_000_000,
      rate_limit: { limit: 100_000, window_seconds: 60 },
    });
    liveKey = account.live_key;
    dashboard = await signIn(liveKey);
  });

  const publicRoutes: Array<[string, string]> = [
    ['POST', '/v1/jobs/search'],
    ['POST', '/v1/searches'],
    ['POST', '/v1/watches'],
    ['POST', '/v1/webhooks/replay'],
    ['POST', '/v1/webhook_endpoints/secret'],
    ['POST', '/v1/webhook_endpoints/secret/rotate'],
    ['POST', '/v1/sandbox/jobs/search'],
    ['POST', '/mcp'],
  ];
  const adminRoutes: Array<[string, string]> = [
    ['POST', '/admin/accounts'],
    ['POST', '/admin/accounts/acc_missing/credits'],
    ['POST', '/admin/accounts/acc_missing/keys'],
    ['PUT', '/admin/providers/provider_a'],
    ['POST', '/admin/world/companies'],
    ['POST', '/admin/world/jobs'],
    ['PATCH', '/admin/world/jobs/wj_missing'],
    ['POST', '/admin/world/jobs/wj_missing/close'],
  ];
  const dashboardRoutes: Array<[string, string]> = [
    ['POST', '/dashboard/api/session'],
    ['POST', '/dashboard/api/keys'],
    ['POST', '/dashboard/api/watches'],
    ['PATCH', '/dashboard/api/watches/wat_missing'],
    ['POST', '/dashboard/api/deliveries/replay'],
    ['POST', '/dashboard/api/webhook_endpoints/secret'],
    ['POST', '/dashboard/api/webhook_endpoints/secret/rotate'],
  ];

  it.each(publicRoutes)(
    'public %s %s, with and without Idempotency-Key',
    async (method, path) => {
      for (const [name, contentType, body] of hostileFor(path)) {
        for (const idempotencyKey of [undefined, `hostile-${Math.random()}`]) {
          const headers: Record<string, string> = {
            authorization: `Bearer ${liveKey}`,
            accept: 'application/json, text/event-stream',
            ...(contentType ? { 'content-type': contentType } : {}),
            ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
          };
          expectRefused(
            await send(`${stack.baseUrl}${path}`, method, headers, body),
            `${name}${idempotencyKey ? ' + Idempotency-Key' : ''}`,
          );
        }
      }
    },
    120_000,
  );

  it.each(adminRoutes)(
    'admin %s %s',
    async (method, path) => {
      for (const [name, contentType, body] of hostileFor(path)) {
        const headers: Record<string, string> = {
          authorization: `Bearer ${stack.adminToken}`,
          ...(contentType ? { 'content-type': contentType } : {}),
        };
        expectRefused(await send(`${stack.adminUrl}${path}`, method, headers, body), name);
      }
    },
    120_000,
  );

  it.each(dashboardRoutes)(
    'dashboard %s %s',
    async (method, path) => {
      for (const [name, contentType, body] of hostileFor(path)) {
        const headers: Record<string, string> = {
          cookie: dashboard.cookie,
          'x-csrf-token': dashboard.csrf,
          origin: stack.baseUrl,
          ...(contentType ? { 'content-type': contentType } : {}),
        };
        expectRefused(await send(`${stack.baseUrl}${path}`, method, headers, body), name);
      }
    },
    120_000,
  );

  it('the prototype of objects is untouched afterwards', () => {
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
