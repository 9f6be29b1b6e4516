import {
  csrfTokenMatches,
  isSafeMethod,
  newSession,
  parseStoredSession,
  readCookie,
  sameOrigin,
  sessionCookie,
  sessionStoreKey,
  storeTtlSeconds,
} from './dashboard-session.js';

const NOW = Date.UTC(2026, 10, 1, 12, 0, 0);
const opened = () =>
  newSession({ accountId: 'acct_1', keyHash: 'a'.repeat(64), keyPrefix: 'svc_live_abc', now: NOW, maxSeconds: 3600 });

describe('dashboard sessions', () => {
  it('opens a session with a fresh random id and CSRF token each time, keyed in the store by the id hash', () => {
    const a = opened();
    const b = opened();
    expect(a.sessionId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.sessionId).not.toBe(b.sessionId);
    expect(a.session.csrfToken).not.toBe(b.session.csrfToken);
    expect(a.session.csrfToken).not.toBe(a.sessionId);
    expect(sessionStoreKey(a.sessionId)).toMatch(/^dashboard:session:[0-9a-f]{64}$/);
    expect(sessionStoreKey(a.sessionId)).not.toContain(a.sessionId);
    expect(a.session).toMatchObject({ accountId: 'acct_1', createdAt: NOW, expiresAt: NOW + 3_600_000 });
    expect(JSON.stringify(a.session)).not.toContain('svc_live_abc0');
  });

  it('keeps a session for the idle window, never past its absolute end', () => {
    const { session } = opened();
    expect(storeTtlSeconds(session, NOW, 1800)).toBe(1800);
    expect(storeTtlSeconds(session, NOW + 3_000_000, 1800)).toBe(600);
    expect(storeTtlSeconds(session, NOW + 3_600_000, 1800)).toBe(0);
  });

  it('reads back only a well-formed session before its end', () => {
    const { session } = opened();
    const text = JSON.stringify(session);
    expect(parseStoredSession(text, NOW + 1000)).toEqual(session);
    expect(parseStoredSession(text, NOW + 3_600_000)).toBeNull();
    expect(parseStoredSession('not json', NOW)).toBeNull();
    expect(parseStoredSession(JSON.stringify({ ...session, csrfToken: 'short' }), NOW)).toBeNull();
    expect(parseStoredSession(null, NOW)).toBeNull();
  });

  it('accepts a change only with the session CSRF token', () => {
    const { session } = opened();
    expect(csrfTokenMatches(session, session.csrfToken)).toBe(true);
    expect(csrfTokenMatches(session, opened().session.csrfToken)).toBe(false);
    expect(csrfTokenMatches(session, undefined)).toBe(false);
    expect(csrfTokenMatches(session, [session.csrfToken])).toBe(false);
    expect(csrfTokenMatches(session, session.csrfToken.slice(1))).toBe(false);
    expect(isSafeMethod('GET')).toBe(true);
    for (const method of ['POST', 'DELETE', 'PATCH', 'PUT']) expect(isSafeMethod(method)).toBe(false);
  });

  it('accepts a change from the dashboard origin only, when the browser says where it comes from', () => {
    const host = '127.0.0.1:8080';
    expect(sameOrigin({ origin: 'http://127.0.0.1:8080', host, secFetchSite: 'same-origin' }, 'http')).toBe(true);
    expect(sameOrigin({ host }, 'http')).toBe(true);
    expect(sameOrigin({ origin: 'https://evil.example', host }, 'http')).toBe(false);
    expect(sameOrigin({ origin: 'http://127.0.0.1:8080', host }, 'https')).toBe(false);
    expect(sameOrigin({ host, secFetchSite: 'cross-site' }, 'http')).toBe(false);
    expect(sameOrigin({ host, secFetchSite: 'same-site' }, 'http')).toBe(false);
    expect(sameOrigin({ origin: 'null', host }, 'http')).toBe(false);
  });

  it(
    'sets an HttpOnly, SameSite=Strict cookie for the dashboard ' + 'API only, Secure over HTTPS, and reads it back',
    () => {
      expect(sessionCookie('abc', { maxAgeSeconds: 60, secure: false })).toBe(
        'dashboard_session=abc; Path=/dashboard/api; Max-Age=60; HttpOnly; SameSite=Strict',
      );
      expect(sessionCookie('abc', { maxAgeSeconds: 60, secure: true })).toMatch(/; Secure$/);
      expect(sessionCookie('', { maxAgeSeconds: 0, secure: false })).toContain('Max-Age=0');
      expect(readCookie('a=1; dashboard_session=xyz; b=2', 'dashboard_session')).toBe('xyz');
      expect(readCookie('xdashboard_session=1', 'dashboard_session')).toBeUndefined();
      expect(readCookie(undefined, 'dashboard_session')).toBeUndefined();
    },
  );
});
