import { ErrorEnvelopeSchema, JobSearchResponseSchema } from '@jobs/contracts';
import { fromAddress } from './client-address.js';
import { dashboard, signIn } from './dashboard-session.js';
import { api, createAccount, stack } from './stack.js';

/**
 * Trust boundaries and the dashboard's rate limits (docs/security.md): the dashboard API counts
 * against its account's limit with RateLimit-* headers and replay against a tighter one; the
 * client address is the TCP peer's unless TRUST_PROXY names the proxy (the test stack names none);
 * the simulator's control routes need the admin token; a cursor works only for its own account.
 */
describe('the dashboard API is rate limited per account', () => {
  it('counts its reads against the account limit, with RateLimit-* headers, shared with the public API', async () => {
    const account = await createAccount({ plan: 'pro', credits: 100, rate_limit: { limit: 6, window_seconds: 60 } });
    const session = await signIn(account.live_key);
    const remaining: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await dashboard(session, '/account');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('6');
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      remaining.push(Number(res.headers.get('ratelimit-remaining')));
    }
    expect(remaining).toEqual([5, 4, 3, 2]);
    // the public API draws on the same bucket
    expect((await api('/v1/account', { key: account.live_key })).headers.get('ratelimit-remaining')).toBe('1');
    expect((await dashboard(session, '/ledger')).status).toBe(200);
    const refused = await dashboard(session, '/keys');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(ErrorEnvelopeSchema.parse(await refused.json()).error.code).toBe('rate_limited');
    // the page still loads its session (and the token its Sign out needs), counted nowhere
    const current = await dashboard(session, '/session');
    expect(current.status).toBe(200);
    expect(((await current.json()) as { csrf_token?: string }).csrf_token).toBe(session.csrf);
    // signing out is never refused by the limit: a session left open on a shared machine is worse
    const signOut = await fetch(`${stack.baseUrl}/dashboard/api/session`, {
      method: 'DELETE',
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf, origin: stack.baseUrl },
    });
    expect(signOut.status).toBe(204);
    expect((await dashboard(session, '/account')).status).toBe(401);
  });

  it('gives replay a tighter limit of its own (10 a minute) inside a generous account limit', async () => {
    const account = await createAccount({ plan: 'pro', credits: 100, rate_limit: { limit: 1000, window_seconds: 60 } });
    const session = await signIn(account.live_key);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 11; i++) {
      last = await dashboard(session, '/deliveries/replay', { event_id: 'evt_does_not_exist' });
      statuses.push(last.status);
      if (i === 0) expect(last.headers.get('ratelimit-limit')).toBe('10');
    }
    expect(statuses.slice(0, 10).every((s) => s !== 429)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(last!.headers.get('ratelimit-remaining')).toBe('0');
    // reads go on: only replay is held back
    expect((await dashboard(session, '/account')).status).toBe(200);
  });
});

describe('trust boundaries', () => {
  it(
    'takes the client address from the connection: ' +
      'X-Forwarded-For from an untrusted peer changes no ' +
      'per-address bucket',
    async () => {
      const call = fromAddress('127.0.0.93');
      const first = await call('/v1/sandbox/jobs/search', { body: {}, headers: { 'x-forwarded-for': '198.51.100.1' } });
      const second = await call('/v1/sandbox/jobs/search', {
        body: {},
        headers: { 'x-forwarded-for': '198.51.100.2' },
      });
      expect(first.status).toBe(200);
      expect(Number(second.headers.get('ratelimit-remaining'))).toBe(
        Number(first.headers.get('ratelimit-remaining')) - 1,
      );
    },
  );

  it("the simulator's control routes answer 401 without the admin token", async () => {
    const sim = process.env['PROVIDER_SIM_URL'] ?? 'http://127.0.0.1:8090';
    for (const headers of [
      {},
      { authorization: 'Bearer not-the-token' },
      { authorization: `Bearer ${stack.adminToken}-x` },
    ]) {
      const res = await fetch(`${sim}/_control/providers/provider_a`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ fail: 'error' }),
      });
      expect(res.status).toBe(401);
    }
    const allowed = await fetch(`${sim}/_control/providers`, {
      headers: { authorization: `Bearer ${stack.adminToken}` },
    });
    expect(allowed.status).toBe(200);
    expect(
      ((await allowed.json()) as { providers: Array<{ fail: string }> }).providers.every((p) => p.fail === 'none'),
    ).toBe(true);
  });

  it('a cursor minted for one account is refused for another with 400 invalid_request', async () => {
    const owner = await createAccount({ plan: 'pro', credits: 10_000 });
    const other = await createAccount({ plan: 'pro', credits: 10_000 });
    const request = { filters: {}, waterfall: { strategy: 'cheapest_first', providers: ['own_index'] }, limit: 1 };
    const first = await api('/v1/jobs/search', { key: owner.live_key, body: request });
    expect(first.status).toBe(200);
    const cursor = JobSearchResponseSchema.parse(first.body).next_cursor;
    expect(cursor).toEqual(expect.stringMatching(/^cur_/));
    const stolen = await api('/v1/jobs/search', { key: other.live_key, body: { ...request, cursor } });
    expect(stolen.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(stolen.body).error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
    // the owner's next page still comes
    expect((await api('/v1/jobs/search', { key: owner.live_key, body: { ...request, cursor } })).status).toBe(200);
    // the other listings refuse a foreign or tampered cursor the same way
    for (const path of [
      `/v1/billing/ledger?cursor=${cursor}`,
      `/v1/watches?cursor=${cursor}`,
      `/v1/events?since=${cursor}`,
    ]) {
      const res = await api(path, { key: other.live_key });
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(ErrorEnvelopeSchema.parse(res.body).error.code).toBe('invalid_request');
    }
  });
});
