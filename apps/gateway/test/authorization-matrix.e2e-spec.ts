import {
  ErrorEnvelopeSchema,
  EventListResponseSchema,
  JobSearchResponseSchema,
  WatchListResponseSchema,
} from '@jobs/contracts';
import { admin, api, createAccount, dashboardSignIn, eventually, Receiver, uniqueWord } from './stack.js';

/**
 * The authorization matrix: every route of the public API (and the dashboard's) called by each
 * kind of caller that must not reach account A's live objects: no key, a revoked key, A's own test
 * key, and another account's live key. Missing and revoked keys get 401 everywhere; a test key and
 * another account get 404 for A's objects and never see them in a list.
 */
type Call = (key: string | undefined) => Promise<{ status: number; body: Record<string, unknown> | null }>;

const receiver = new Receiver();
let a: { account_id: string; live_key: string; test_key: string };
let b: { account_id: string; live_key: string; test_key: string };
let revoked: string;
/** A's live objects. */
let watchId: string;
let searchId: string;
let eventId: string;
let jobId: string;
/** The request id of A's live search: its ledger lines. */
let searchRequestId: string;
/** The URL A's live watch delivers to, and its live secret. */
let hookUrl: string;
let hookSecret: string;

beforeAll(async () => {
  await receiver.start();
  a = await createAccount({ plan: 'pro', credits: 1_000 });
  b = await createAccount({ plan: 'pro', credits: 1_000 });
  revoked = String((await admin('POST', `/accounts/${a.account_id}/keys`, { mode: 'live' }, 201))!['key']);
  await admin('DELETE', `/keys/${revoked}`, undefined, 204);

  hookUrl = receiver.endpoint();
  const watch = await api('/v1/watches', {
    key: a.live_key,
    body: { type: 'company', domain: `${uniqueWord()}.example`, webhook_url: hookUrl },
  });
  expect(watch.status).toBe(201);
  watchId = String(watch.body!['id']);
  hookSecret = String(
    (await api('/v1/webhook_endpoints/secret', { key: a.live_key, body: { url: hookUrl } })).body!['secret'],
  );

  // A live async search that finds nothing completes at once and leaves a live search.completed.
  const search = await api('/v1/searches', {
    key: a.live_key,
    body: { filters: { title_or: [uniqueWord()] }, limit: 10, webhook_url: receiver.endpoint() },
  });
  expect(search.status).toBe(202);
  searchId = String(search.body!['id']);
  eventId = await eventually(
    async () => {
      const feed = EventListResponseSchema.parse((await api('/v1/events', { key: a.live_key })).body);
      return feed.data.find((e) => e.type === 'search.completed' && e.data.search.id === searchId)?.id;
    },
    60_000,
    "the live search's search.completed in A's feed",
    250,
  );

  const found = JobSearchResponseSchema.parse(
    (await api('/v1/jobs/search', { key: a.live_key, body: { limit: 1 } })).body,
  );
  jobId = found.data[0]?.id ?? 'job_none';
  searchRequestId = found.metadata.request_id;
}, 180_000);

afterAll(async () => {
  await api(`/v1/watches/${watchId}`, { key: a.live_key, method: 'DELETE' });
  await receiver.stop();
});

const bearer = (key: string | undefined) => (key === undefined ? {} : { key });

/** Every public route, called as a caller other than A's live key would call it for A's objects. */
const ROUTES: Record<string, Call> = {
  'POST /v1/jobs/search': (key) => api('/v1/jobs/search', { ...bearer(key), body: { limit: 1 } }),
  'GET /v1/jobs/{id}': (key) => api(`/v1/jobs/${jobId}`, bearer(key)),
  'POST /v1/searches': (key) =>
    api('/v1/searches', { ...bearer(key), body: { filters: { title_or: [uniqueWord()] }, limit: 1 } }),
  'GET /v1/searches/{id}': (key) => api(`/v1/searches/${searchId}`, bearer(key)),
  'GET /v1/companies/{domain}': (key) => api('/v1/companies/acme.example', bearer(key)),
  'POST /v1/watches': (key) =>
    api('/v1/watches', {
      ...bearer(key),
      body: { type: 'company', domain: `${uniqueWord()}.example`, webhook_url: receiver.endpoint() },
    }),
  'GET /v1/watches': (key) => api('/v1/watches', bearer(key)),
  'DELETE /v1/watches/{id}': (key) => api(`/v1/watches/${watchId}`, { ...bearer(key), method: 'DELETE' }),
  'GET /v1/events': (key) => api('/v1/events', bearer(key)),
  'POST /v1/webhooks/replay': (key) => api('/v1/webhooks/replay', { ...bearer(key), body: { event_id: eventId } }),
  'GET /v1/webhook_endpoints': (key) => api('/v1/webhook_endpoints', bearer(key)),
  'POST /v1/webhook_endpoints/secret': (key) =>
    api('/v1/webhook_endpoints/secret', { ...bearer(key), body: { url: hookUrl } }),
  'POST /v1/webhook_endpoints/secret/rotate': (key) =>
    api('/v1/webhook_endpoints/secret/rotate', { ...bearer(key), body: { url: hookUrl } }),
  'GET /v1/account': (key) => api('/v1/account', bearer(key)),
  'GET /v1/billing/ledger': (key) => api('/v1/billing/ledger', bearer(key)),
  'GET /v1/providers': (key) => api('/v1/providers', bearer(key)),
  'POST /mcp': (key) =>
    api('/mcp', {
      ...bearer(key),
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream' },
    }),
};

/** A's live objects by route: what a test key and another account must get 404 for. */
const OWN_OBJECT_ROUTES = ['GET /v1/searches/{id}', 'DELETE /v1/watches/{id}', 'POST /v1/webhooks/replay'];

describe('authorization matrix', () => {
  it.each(Object.keys(ROUTES))('%s: no key and a revoked key get 401 unauthorized', async (route) => {
    for (const key of [undefined, revoked, 'svc_live_notakeyatall']) {
      const res = await ROUTES[route]!(key);
      expect({ route, key: key?.slice(0, 9), status: res.status }).toEqual({
        route,
        key: key?.slice(0, 9),
        status: 401,
      });
      expect(ErrorEnvelopeSchema.parse(res.body).error.code).toBe('unauthorized');
    }
  });

  it.each(OWN_OBJECT_ROUTES)(
    "%s of A's live object: 404 to A's test key and to another account's live key",
    async (route) => {
      for (const key of [a.test_key, b.live_key]) {
        const res = await ROUTES[route]!(key);
        expect({ route, caller: key === a.test_key ? 'A test' : 'B live', status: res.status }).toEqual({
          route,
          caller: key === a.test_key ? 'A test' : 'B live',
          status: 404,
        });
        expect(ErrorEnvelopeSchema.parse(res.body).error.code).toBe('not_found');
      }
    },
  );

  it("lists never show A's live objects to A's test key or to another account", async () => {
    for (const key of [a.test_key, b.live_key]) {
      const watches = WatchListResponseSchema.parse((await api('/v1/watches', { key })).body);
      expect(watches.data.map((w) => w.id)).not.toContain(watchId);
      const events = EventListResponseSchema.parse((await api('/v1/events', { key })).body);
      expect(events.data.map((e) => e.id)).not.toContain(eventId);
      const ledger = await api('/v1/billing/ledger', { key });
      expect(ledger.status).toBe(200);
      expect(JSON.stringify(ledger.body)).not.toContain(a.account_id);
    }
    // A's own live key sees them (the matrix's objects are real)
    expect(
      WatchListResponseSchema.parse((await api('/v1/watches', { key: a.live_key })).body).data.map((w) => w.id),
    ).toContain(watchId);
  });

  it(
    "a test key gets sandbox data, never A's live job: the job is " +
      '404 to it and its searches return sandbox jobs, never ' +
      'charged',
    async () => {
      expect((await ROUTES['GET /v1/jobs/{id}']!(a.test_key)).status).toBe(404);
      const sandbox = JobSearchResponseSchema.parse(
        (await api('/v1/jobs/search', { key: a.test_key, body: { limit: 5 } })).body,
      );
      expect(sandbox.data.map((j) => j.id)).not.toContain(jobId);
      expect(sandbox.metadata.credits_charged).toBe(0);
    },
  );

  it(
    "never gives A's live webhook secret to A's test key or to " +
      'another account: each gets a secret of its own, and lists ' +
      'only its own endpoints',
    async () => {
      for (const key of [a.test_key, b.live_key]) {
        const listed = await api('/v1/webhook_endpoints', { key });
        expect(listed.status).toBe(200);
        expect(JSON.stringify(listed.body)).not.toContain(hookUrl);
        const own = await api('/v1/webhook_endpoints/secret', { key, body: { url: hookUrl } });
        expect(own.status).toBe(200);
        expect(own.body!['secret']).not.toBe(hookSecret);
      }
      // A's live key still reads the same live secret, and lists the endpoint with the watch that uses it
      expect(
        (await api('/v1/webhook_endpoints/secret', { key: a.live_key, body: { url: hookUrl } })).body!['secret'],
      ).toBe(hookSecret);
      const live = await api('/v1/webhook_endpoints', { key: a.live_key });
      expect(live.body!['data']).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            url: hookUrl,
            used_by: expect.objectContaining({ watches: 1, watch_ids: [watchId] }),
          }),
        ]),
      );
    },
  );

  it('the live watch, search and event are still there after all of it', async () => {
    expect((await api(`/v1/searches/${searchId}`, { key: a.live_key })).status).toBe(200);
    expect((await api('/v1/webhooks/replay', { key: a.live_key, body: { event_id: eventId } })).status).toBe(202);
    expect(
      WatchListResponseSchema.parse((await api('/v1/watches', { key: a.live_key })).body).data.map((w) => w.id),
    ).toContain(watchId);
  });

  describe('the dashboard API', () => {
    const DASHBOARD_ROUTES: Array<[string, string]> = [
      ['GET', '/account'],
      ['GET', '/keys'],
      ['GET', '/usage/daily'],
      ['GET', '/ledger'],
      ['GET', '/ledger/requests'],
      ['GET', '/ledger/requests/req_x'],
      ['GET', '/watches'],
      ['GET', '/deliveries'],
      ['GET', '/providers'],
      ['GET', '/webhook_endpoints'],
      ['GET', '/searches'],
      ['GET', '/searches/srch_x'],
      ['GET', '/events'],
    ];
    const dashboardApi = (path: string, method: string) =>
      fetch(`http://${new URL(process.env['BASE_URL'] ?? 'http://127.0.0.1:8080').host}/dashboard/api${path}`, {
        method,
      });

    it('every route without a session is 401', async () => {
      for (const [method, path] of DASHBOARD_ROUTES) {
        const res = await dashboardApi(path, method);
        expect({ path, status: res.status }).toEqual({ path, status: 401 });
      }
    });

    it('asked whether there is a session, it answers 204 with nothing in it: signed out is an answer', async () => {
      const res = await dashboardApi('/session', 'GET');
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
    });

    it('sign-in refuses a test key and a revoked key', async () => {
      await expect(dashboardSignIn(a.test_key)).rejects.toThrow(/401/);
      await expect(dashboardSignIn(revoked)).rejects.toThrow(/401/);
    });

    it("another account's session gets 404 for A's watch and never sees A's deliveries", async () => {
      const other = await dashboardSignIn(b.live_key);
      expect((await other.call('PATCH', `/watches/${watchId}`, { status: 'paused' })).status).toBe(404);
      expect((await other.call('DELETE', `/watches/${watchId}`)).status).toBe(404);
      expect((await other.call('POST', '/deliveries/replay', { event_id: eventId })).status).toBe(404);
      const deliveries = await other.call('GET', '/deliveries');
      expect(JSON.stringify(deliveries.body)).not.toContain(eventId);
      const own = await dashboardSignIn(a.live_key);
      expect(JSON.stringify((await own.call('GET', '/deliveries')).body)).toContain(eventId);
    });

    it("another account's session never sees A's ledger by request, nor the lines of A's search", async () => {
      const own = await dashboardSignIn(a.live_key);
      expect(JSON.stringify((await own.call('GET', '/ledger/requests')).body)).toContain(searchRequestId);
      const lines = await own.call('GET', `/ledger/requests/${searchRequestId}`);
      expect(JSON.stringify(lines.body)).toContain(jobId);
      const other = await dashboardSignIn(b.live_key);
      expect(JSON.stringify((await other.call('GET', '/ledger/requests')).body)).not.toContain(searchRequestId);
      expect((await other.call('GET', `/ledger/requests/${searchRequestId}`)).body).toEqual({
        data: [],
        next_cursor: null,
      });
    });
  });
});
