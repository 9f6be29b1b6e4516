import type { ExecutionContext } from '@nestjs/common';
import type { Principal } from '../auth/api-key.js';
import type { ApiKeyService } from '../auth/api-key.service.js';
import type { GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import { newSession, type DashboardSession } from './dashboard-session.js';
import { DashboardSessionGuard, DashboardSessionIfAny } from './dashboard-session.guard.js';
import type { DashboardSessionStore } from './dashboard-session.store.js';

const PRINCIPAL: Principal = {
  accountId: 'acct_1',
  mode: 'live',
  keyHash: 'a'.repeat(64),
  plan: 'pro',
  rateLimit: 600,
  rateLimitWindowSeconds: 60,
  pinnedVersion: '2026-10-01',
};

function world() {
  const { sessionId, session } = newSession({
    accountId: 'acct_1',
    keyHash: 'a'.repeat(64),
    keyPrefix: 'svc_live_abc',
    now: Date.now(),
    maxSeconds: 3600,
  });
  const sessions = new Map<string, DashboardSession>([[sessionId, session]]);
  let keyValid = true;
  const store = {
    read: async (id: string) => sessions.get(id) ?? null,
    close: async (id: string) => void sessions.delete(id),
  } as unknown as DashboardSessionStore;
  const keys = { resolveHash: async () => (keyValid ? PRINCIPAL : null) } as unknown as ApiKeyService;
  const guard = new DashboardSessionGuard(store, keys, { DASHBOARD_COOKIE_SECURE: 'auto' } as GatewayConfig);
  const request = (method: string, headers: Record<string, string>) => {
    const req = { method, protocol: 'http', headers: { host: '127.0.0.1:8080', ...headers } } as Record<
      string,
      unknown
    >;
    const context = { switchToHttp: () => ({ getRequest: () => req }) } as unknown as ExecutionContext;
    return { req, pass: () => guard.canActivate(context), passIfAny: () => ifAny.canActivate(context) };
  };
  const ifAny = new DashboardSessionIfAny(guard);
  return { sessionId, session, sessions, request, revokeKey: () => (keyValid = false) };
}

async function refusal(pass: () => Promise<boolean>): Promise<{ code: string; status: number | undefined }> {
  try {
    await pass();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, status: error.status };
    throw error;
  }
  throw new Error('the guard let the request through');
}

describe('the dashboard session guard', () => {
  it('lets a read through with the session cookie alone, and names the caller', async () => {
    const { sessionId, request } = world();
    const { req, pass } = request('GET', { cookie: `dashboard_session=${sessionId}` });
    expect(await pass()).toBe(true);
    expect(req['dashboard']).toMatchObject({ sessionId, principal: PRINCIPAL });
  });

  it('refuses without a cookie, with an unknown one, or a malformed one (401)', async () => {
    const { request } = world();
    expect(await refusal(request('GET', {}).pass)).toEqual({ code: 'unauthorized', status: undefined });
    expect(await refusal(request('GET', { cookie: `dashboard_session=${'x'.repeat(43)}` }).pass)).toMatchObject({
      code: 'unauthorized',
    });
    expect(await refusal(request('GET', { cookie: 'dashboard_session=../../etc' }).pass)).toMatchObject({
      code: 'unauthorized',
    });
  });

  it('needs the CSRF token on every change, and refuses another origin even with it (403)', async () => {
    const { sessionId, session, request } = world();
    const cookie = `dashboard_session=${sessionId}`;
    expect(await refusal(request('POST', { cookie }).pass)).toEqual({ code: 'unauthorized', status: 403 });
    expect(await refusal(request('DELETE', { cookie, 'x-csrf-token': 'A'.repeat(43) }).pass)).toEqual({
      code: 'unauthorized',
      status: 403,
    });
    expect(
      await refusal(request('POST', { cookie, 'x-csrf-token': session.csrfToken, origin: 'http://evil.example' }).pass),
    ).toEqual({ code: 'unauthorized', status: 403 });
    expect(
      await refusal(
        request('POST', { cookie, 'x-csrf-token': session.csrfToken, 'sec-fetch-site': 'cross-site' }).pass,
      ),
    ).toEqual({ code: 'unauthorized', status: 403 });
    expect(
      await request('POST', {
        cookie,
        'x-csrf-token': session.csrfToken,
        origin: 'http://127.0.0.1:8080',
        'sec-fetch-site': 'same-origin',
      }).pass(),
    ).toBe(true);
  });

  it('ends the session once the key it was opened with no longer resolves', async () => {
    const { sessionId, sessions, request, revokeKey } = world();
    revokeKey();
    expect(await refusal(request('GET', { cookie: `dashboard_session=${sessionId}` }).pass)).toMatchObject({
      code: 'unauthorized',
    });
    expect(sessions.has(sessionId)).toBe(false);
  });

  it('lets a signed-out visitor ask for the session: no caller, no refusal', async () => {
    const { sessionId, request, revokeKey } = world();
    const signedIn = request('GET', { cookie: `dashboard_session=${sessionId}` });
    expect(await signedIn.passIfAny()).toBe(true);
    expect(signedIn.req['dashboard']).toMatchObject({ sessionId, principal: PRINCIPAL });
    const none = request('GET', {});
    expect(await none.passIfAny()).toBe(true);
    expect(none.req['dashboard']).toBeUndefined();
    revokeKey();
    const revoked = request('GET', { cookie: `dashboard_session=${sessionId}` });
    expect(await revoked.passIfAny()).toBe(true);
    expect(revoked.req['dashboard']).toBeUndefined();
  });
});
