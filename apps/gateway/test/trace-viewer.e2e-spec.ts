import { randomBytes } from 'node:crypto';
import { JobSearchResponseSchema } from '@jobs/contracts';
import { api, createAccount, servicesOf, stack, traceViewer, type TraceViewer, type ViewerSpan } from './stack.js';

/**
 * Every answer names its trace, and the trace viewer holds it: a sync search's `traceparent`
 * answer header leads to its trace in the viewer's API (Zipkin, /api/v2/trace/{id}) with the spans
 * of every stage within 15 s of the answer, and the request id finds the same trace. The test
 * stack records only traces a caller asks for, so the search sends a sampled `traceparent` (the
 * public API starts its own trace and links the caller's, sampled as the caller asked); under
 * `npm run up` every trace is recorded. The viewer is started for this spec when the stack did
 * not start it (`npm test` starts it only when asked).
 */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;
/** The bound: the trace is in the viewer this soon after the answer. */
const VIEWER_DEADLINE_MS = 15_000;
/** The answer's path: the gateway, the waterfall, the partner's call (the simulator), the merge and the charge. */
const SEARCH_SERVICES = ['gateway', 'search-orchestrator', 'provider-fetcher', 'provider-sim', 'dedupe', 'billing'];

let viewer: TraceViewer;

beforeAll(async () => {
  viewer = await traceViewer();
}, 240_000);
afterAll(async () => {
  await viewer?.release();
});

/** The trace's spans once `done` holds, polling until the deadline (then what it holds, for the failure). */
async function spansUntil(
  traceId: string,
  deadline: number,
  done: (spans: ViewerSpan[]) => boolean,
): Promise<ViewerSpan[]> {
  let spans: ViewerSpan[] = [];
  while (Date.now() < deadline) {
    spans = await viewer.trace(traceId);
    if (done(spans)) return spans;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return spans;
}

const parse = (header: string | null) => {
  const match = TRACEPARENT.exec(header ?? '');
  if (!match) throw new Error(`not a W3C traceparent: ${header}`);
  return { traceId: match[1]!, spanId: match[2]!, sampled: match[3] === '01' };
};

describe('the trace viewer', () => {
  it(
    "holds a sync search's trace, named by its traceparent answer " + 'header, across every stage within 15 s',
    async () => {
      const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
      const callerTraceId = randomBytes(16).toString('hex');
      const res = await api('/v1/jobs/search', {
        key,
        headers: { traceparent: `00-${callerTraceId}-${randomBytes(8).toString('hex')}-01` },
        body: {
          filters: { title_or: ['engineer'] },
          waterfall: { strategy: 'max_coverage', providers: ['own_index', 'provider_a'] },
          limit: 5,
        },
      });
      const answeredAt = Date.now();
      expect(res.status).toBe(200);
      expect(JobSearchResponseSchema.parse(res.body).metadata.providers.tried).toContain('provider_a');
      const named = parse(res.headers.get('traceparent'));
      // The service's own trace, recorded because the caller asked; the caller's trace is only linked.
      expect(named).toMatchObject({ sampled: true });
      expect(named.traceId).not.toBe(callerTraceId);

      // the request span ends last, and may come in the exporter's next batch
      const spans = await spansUntil(
        named.traceId,
        answeredAt + VIEWER_DEADLINE_MS,
        (all) =>
          SEARCH_SERVICES.every((service) => servicesOf(all).has(service)) && all.some((s) => s.id === named.spanId),
      );
      expect([...servicesOf(spans)].sort()).toEqual(expect.arrayContaining([...SEARCH_SERVICES].sort()));
      expect(servicesOf(spans).size).toBeGreaterThanOrEqual(5);
      // The header's span is the gateway's request span, the root of the trace, and it carries the request id.
      const requestId = res.headers.get('x-request-id')!;
      const root = spans.find((span) => span.id === named.spanId);
      expect(root).toMatchObject({
        kind: 'SERVER',
        localEndpoint: { serviceName: 'gateway' },
        tags: expect.objectContaining({ 'jobs.request_id': requestId }),
      });
      expect(root!.parentId).toBeUndefined();
      expect(spans.every((span) => span.traceId === named.traceId)).toBe(true);

      // Support's way from a customer's request id to the trace: the viewer's tag search.
      expect(await viewer.tracesTagged('jobs.request_id', requestId)).toEqual([named.traceId]);
    },
  );

  it("continues an operator's trace on the admin port, and the answer names it", async () => {
    const callerTraceId = randomBytes(16).toString('hex');
    const res = await fetch(`${stack.adminUrl}/admin/providers`, {
      headers: {
        authorization: `Bearer ${stack.adminToken}`,
        traceparent: `00-${callerTraceId}-${randomBytes(8).toString('hex')}-01`,
      },
    });
    expect(res.status).toBe(200);
    const named = parse(res.headers.get('traceparent'));
    expect(named).toMatchObject({ traceId: callerTraceId, sampled: true });
    const spans = await spansUntil(callerTraceId, Date.now() + VIEWER_DEADLINE_MS, (all) =>
      all.some((span) => span.id === named.spanId),
    );
    expect(spans.find((span) => span.id === named.spanId)).toMatchObject({
      kind: 'SERVER',
      localEndpoint: { serviceName: 'gateway' },
    });
  });
});

describe('every answer names its trace', () => {
  const admin = (path: string, token = stack.adminToken) =>
    fetch(`${stack.adminUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const publicApi = (path: string, init: RequestInit = {}) => fetch(`${stack.baseUrl}${path}`, init);

  it('public and admin answers, successes and errors alike, each its own trace beside its request id', async () => {
    const { live_key: key } = await createAccount({ plan: 'starter', credits: 10 });
    const answers = {
      'public 200': await publicApi('/v1/account', { headers: { authorization: `Bearer ${key}` } }),
      'public 401': await publicApi('/v1/account'),
      'public 400 (bad body)': await publicApi('/v1/jobs/search', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: '{"limit":"many"}',
      }),
      'public 404 (no such route)': await publicApi('/v1/no-such-thing'),
      'public 400 (malformed URL)': await publicApi(`/v1/jobs/${'x'.repeat(3000)}`, {
        headers: { authorization: `Bearer ${key}` },
      }),
      'sandbox 200': await publicApi('/v1/sandbox/jobs/search', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"filters":{"title_or":["engineer"]}}',
      }),
      'admin 200': await admin('/admin/providers'),
      'admin 401': await admin('/admin/providers', 'wrong-token'),
    };
    const statuses = Object.fromEntries(Object.entries(answers).map(([what, res]) => [what, res.status]));
    expect(statuses).toEqual({
      'public 200': 200,
      'public 401': 401,
      'public 400 (bad body)': 400,
      'public 404 (no such route)': 404,
      'public 400 (malformed URL)': 400,
      'sandbox 200': 200,
      'admin 200': 200,
      'admin 401': 401,
    });
    const named = Object.entries(answers).map(([what, res]) => ({
      what,
      traceparent: res.headers.get('traceparent'),
      requestId: res.headers.get('x-request-id'),
    }));
    for (const answer of named)
      expect({
        what: answer.what,
        traceparent: TRACEPARENT.test(answer.traceparent ?? ''),
        requestId: answer.requestId?.startsWith('req_'),
      }).toEqual({ what: answer.what, traceparent: true, requestId: true });
    // One trace per request.
    expect(new Set(named.map((answer) => parse(answer.traceparent).traceId)).size).toBe(named.length);
  });
});
