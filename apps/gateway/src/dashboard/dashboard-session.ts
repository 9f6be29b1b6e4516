import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * The dashboard's sign-in, as plain functions (no Nest, no Redis): a live API key is exchanged
 * once for a session; the browser then holds only an opaque session id in an HttpOnly,
 * SameSite=Strict cookie (Secure over HTTPS) and a CSRF token in memory, never the key.
 *
 * - The session id is 32 random bytes; the store keys the session by its SHA-256, so a read of
 *   the store does not yield a usable cookie.
 * - The CSRF token is a synchronizer token: 32 random bytes kept in the session, handed to the
 *   page in the JSON of sign-in and of GET /dashboard/api/session (same-origin reads only: no
 *   CORS), sent back in `X-CSRF-Token` on every change and compared in constant time.
 * - A change must also come from the dashboard's own origin when the browser says where it
 *   comes from (`Origin`, or `Sec-Fetch-Site`): a second line behind SameSite=Strict.
 * - A session lapses after DASHBOARD_SESSION_IDLE_SECONDS without use (the store's TTL, renewed
 *   on use) and in any case DASHBOARD_SESSION_MAX_SECONDS after sign-in; it ends at once on
 *   sign-out and when the key it was opened with is revoked.
 */

export const SESSION_COOKIE = 'dashboard_session';
/** The cookie is sent to the dashboard's API only, not to the public API or the static files. */
export const SESSION_COOKIE_PATH = '/dashboard/api';
export const CSRF_HEADER = 'x-csrf-token';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What the store keeps per session: never the key, only its hash (to follow its revocation). */
export const DashboardSessionSchema = z.object({
  accountId: z.string().min(1),
  keyHash: z.string().regex(/^[0-9a-f]{64}$/),
  keyPrefix: z.string(),
  csrfToken: z.string().regex(TOKEN_PATTERN),
  createdAt: z.number().int(),
  /** Absolute end (ms since the epoch), whatever the use. */
  expiresAt: z.number().int(),
});
export type DashboardSession = z.infer<typeof DashboardSessionSchema>;

/** 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function isWellFormedToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_PATTERN.test(value);
}

/** Where the store keeps a session: under the hash of its id, never the id itself. */
export function sessionStoreKey(sessionId: string): string {
  return `dashboard:session:${createHash('sha256').update(sessionId).digest('hex')}`;
}

export function newSession(input: {
  accountId: string;
  keyHash: string;
  keyPrefix: string;
  now: number;
  maxSeconds: number;
}): { sessionId: string; session: DashboardSession } {
  return {
    sessionId: newToken(),
    session: {
      accountId: input.accountId,
      keyHash: input.keyHash,
      keyPrefix: input.keyPrefix,
      csrfToken: newToken(),
      createdAt: input.now,
      expiresAt: input.now + input.maxSeconds * 1000,
    },
  };
}

/** Seconds the store should keep the session from now: the idle window, never past the absolute end. */
export function storeTtlSeconds(session: DashboardSession, now: number, idleSeconds: number): number {
  return Math.max(0, Math.min(idleSeconds, Math.floor((session.expiresAt - now) / 1000)));
}

export function parseStoredSession(text: string | null | undefined, now: number): DashboardSession | null {
  if (!text) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = DashboardSessionSchema.safeParse(json);
  if (!parsed.success || parsed.data.expiresAt <= now) return null;
  return parsed.data;
}

/** Constant-time comparison of the token sent with a change against the session's. */
export function csrfTokenMatches(session: DashboardSession, sent: unknown): boolean {
  if (!isWellFormedToken(sent)) return false;
  const a = Buffer.from(session.csrfToken);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Methods that change nothing; every other method needs the CSRF token. */
export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/**
 * Whether the browser's own account of where a request comes from allows a change: `Origin`,
 * when sent, must be the dashboard's origin (scheme and host the request came in on);
 * `Sec-Fetch-Site`, when sent, must be `same-origin`. Clients that send neither (curl) pass this
 * check and still need the session cookie and the CSRF token.
 */
export function sameOrigin(
  headers: { origin?: string | undefined; host?: string | undefined; secFetchSite?: string | undefined },
  protocol: string,
): boolean {
  if (headers.secFetchSite !== undefined && headers.secFetchSite !== 'same-origin') return false;
  if (headers.origin === undefined) return true;
  if (!headers.host) return false;
  return headers.origin === `${protocol}://${headers.host}`;
}

/** One cookie of a `Cookie` header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The `Set-Cookie` value of a session (maxAgeSeconds 0 clears it). */
export function sessionCookie(value: string, options: { maxAgeSeconds: number; secure: boolean }): string {
  const parts = [
    `${SESSION_COOKIE}=${value}`,
    `Path=${SESSION_COOKIE_PATH}`,
    `Max-Age=${options.maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
