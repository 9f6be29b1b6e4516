import { stack } from './stack.js';

/**
 * A signed-in dashboard session outside a browser: its cookie, its CSRF token, and calls to /dashboard/api with both.
 */
export interface DashboardClient {
  csrfToken: string;
  /** `csrf: false` leaves the token out of a change (to see it refused). */
  call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    options?: { csrf?: boolean },
  ): Promise<{ status: number; body: Record<string, unknown> | null }>;
}

/**
 * Signs in to the dashboard with a live key (POST /dashboard/api/session from the dashboard's own
 * origin, as the page does) and returns a client that sends the session cookie with every call
 * and the CSRF token and same origin with every change.
 */
export async function dashboardSignIn(liveKey: string): Promise<DashboardClient> {
  const origin = new URL(stack.baseUrl).origin;
  const res = await fetch(`${stack.baseUrl}/dashboard/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ key: liveKey }),
  });
  if (res.status !== 201) throw new Error(`dashboard sign-in answered ${res.status}: ${await res.text()}`);
  const cookie = /^([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!cookie) throw new Error('dashboard sign-in set no cookie');
  const { csrf_token: csrfToken } = (await res.json()) as { csrf_token: string };
  return {
    csrfToken,
    async call(method, path, body, options = {}) {
      const answer = await fetch(`${stack.baseUrl}/dashboard/api${path}`, {
        method,
        headers: {
          cookie,
          ...(method === 'GET' ? {} : { origin, ...(options.csrf === false ? {} : { 'x-csrf-token': csrfToken }) }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      return { status: answer.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
    },
  };
}
