/**
 * The dashboard API client. The session is an HttpOnly cookie the page never sees; the CSRF
 * token lives in this module's memory only (never in localStorage, sessionStorage or a cookie
 * readable by script) and goes with every change as `X-CSRF-Token`. A reload asks the server
 * for it again (GET /dashboard/api/session), which only a same-origin page can read.
 */

const BASE = '/dashboard/api';

let csrfToken: string | null = null;
let onSignedOut: () => void = () => undefined;

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export function whenSignedOut(callback: () => void): void {
  onSignedOut = callback;
}

export interface SessionView {
  account_id: string;
  key_prefix: string;
  csrf_token: string;
  expires_at: string;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`${BASE}${path}`, { method, headers, credentials: 'same-origin', cache: 'no-store', ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  } catch {
    throw new ApiProblem(0, 'The dashboard could not reach the server. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const json = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const error = (json as { error?: { message?: string; code?: string } } | undefined)?.error;
    const problem = new ApiProblem(response.status, error?.message ?? `The server answered ${response.status}.`, error?.code);
    if (response.status === 401 && path !== '/session') {
      csrfToken = null;
      onSignedOut();
    }
    throw problem;
  }
  return json as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function signIn(key: string): Promise<SessionView> {
  const session = await call<SessionView>('POST', '/session', { key });
  csrfToken = session.csrf_token;
  return session;
}

/** The current session, if the cookie still holds one; null when signed out. */
export async function resume(): Promise<SessionView | null> {
  try {
    const session = await call<SessionView>('GET', '/session');
    csrfToken = session.csrf_token;
    return session;
  } catch (error) {
    if (error instanceof ApiProblem && error.status === 401) return null;
    throw error;
  }
}

export async function signOut(): Promise<void> {
  try {
    await call<void>('DELETE', '/session');
  } finally {
    csrfToken = null;
  }
}

export const get = <T>(path: string) => call<T>('GET', path);
export const post = <T>(path: string, body: unknown) => call<T>('POST', path, body);
export const del = <T>(path: string) => call<T>('DELETE', path);
export const patch = <T>(path: string, body: unknown) => call<T>('PATCH', path, body);

/** The public keyless sandbox (no session, no key). */
export async function sandboxSearch(body: unknown): Promise<SandboxResult> {
  let response: Response;
  try {
    response = await fetch('/v1/sandbox/jobs/search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    throw new ApiProblem(0, 'The dashboard could not reach the server. Check your connection and try again.');
  }
  const json = safeJson(await response.text()) as SandboxResult & { error?: { message?: string } };
  if (!response.ok) throw new ApiProblem(response.status, json?.error?.message ?? `The sandbox answered ${response.status}.`);
  return json;
}

export interface Account {
  plan: string;
  credits_remaining: number;
  credits_reset_at: string;
  providers_enabled: string[];
  rate_limit: { limit: number; window_seconds: number };
}
export interface ApiKey {
  id: string;
  prefix: string;
  mode: 'live' | 'test';
  created_at: string;
  revoked_at: string | null;
}
export interface DailyUsage {
  day: string;
  credits: number;
  entries: number;
}
export interface LedgerEntry {
  id: string;
  job_id: string | null;
  request_id: string;
  operation: string;
  credits: number;
  reason: string;
  created_at: string;
}
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}
export interface Watch {
  id: string;
  type: 'company' | 'search';
  domain: string | null;
  filters: Record<string, unknown> | null;
  webhook_url: string;
  events: string[];
  status: 'active' | 'paused';
  created_at: string;
}
export interface Attempt {
  number: number;
  outcome: string;
  status_code: number | null;
  error: string | null;
  started_at: string;
  duration_ms: number | null;
}
export interface Delivery {
  id: string;
  kind: string;
  url: string;
  status: string;
  next_attempt_at: string | null;
  created_at: string;
  attempts: Attempt[];
}
export interface EventDeliveries {
  event_id: string;
  type: string;
  watch_id: string | null;
  webhook_url: string | null;
  created_at: string;
  deliveries: Delivery[];
}
export interface Provider {
  slug: string;
  name: string;
  enabled_on_your_plan: boolean;
  status: string;
  last_checked_at: string;
}
export interface SandboxJob {
  id: string;
  title: string;
  company: { name: string; domain: string | null };
  location: { city: string | null; country_code: string | null; remote: boolean | null };
  employment_type: string | null;
  seniority: string | null;
  sources: { provider: string }[];
}
export interface SandboxResult {
  data: SandboxJob[];
  metadata: { request_id: string; credits_charged: number; latency_ms: number };
}
