import { stack } from './stack.js';

export interface DashboardSession {
  cookie: string;
  csrf: string;
}

/** Signs in to the dashboard with an API key, as its sign-in page does. */
export async function signIn(key: string): Promise<DashboardSession> {
  const res = await fetch(`${stack.baseUrl}/dashboard/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: stack.baseUrl },
    body: JSON.stringify({ key }),
  });
  expect(res.status).toBe(201);
  return {
    cookie: res.headers.get('set-cookie')!.split(';')[0]!,
    csrf: ((await res.json()) as { csrf_token: string }).csrf_token,
  };
}

/** A dashboard API call: a GET without a body, a POST with one, or the method named; writes carry the CSRF token. */
export function dashboard(session: DashboardSession, path: string, body?: unknown, method?: 'DELETE') {
  const write = body !== undefined || method !== undefined;
  return fetch(`${stack.baseUrl}/dashboard/api${path}`, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers: {
      cookie: session.cookie,
      ...(write ? { 'x-csrf-token': session.csrf, origin: stack.baseUrl } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
