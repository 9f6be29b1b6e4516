/**
 * The dashboard API client. The session is an HttpOnly cookie the page never sees; the CSRF
 * token lives in this module's memory only (never in localStorage, sessionStorage or a cookie
 * readable by script) and goes with every change as `X-CSRF-Token`. A reload asks the server
 * for it again (GET /dashboard/api/session), which only a same-origin page can read.
 */

// The answers' shapes come from @jobs/contracts, where the gateway takes them too: the public API's
// objects, and the dashboard API's own views (type-only imports: nothing of zod reaches the bundle).
import type {
  Account,
  AsyncSearch,
  AsyncSearchCreateRequestInput as AsyncSearchStart,
  AsyncSearchView,
  DailyUsage,
  DashboardKey as ApiKey,
  DashboardPage as Page,
  DashboardSessionView as SessionView,
  DeliveryAttemptView as Attempt,
  DeliveryView as Delivery,
  Event,
  EventDeliveriesView as EventDeliveries,
  FiltersInput as Filters,
  Job,
  Job as SandboxJob,
  JobSearchResponse as SandboxResult,
  LedgerEntry,
  LedgerRequestView as LedgerRequest,
  Provider,
  Watch,
  WebhookEndpoint,
  WebhookEndpointRotated,
  WebhookEndpointSecret,
} from '@jobs/contracts';
export type {
  Account,
  ApiKey,
  AsyncSearch,
  AsyncSearchStart,
  AsyncSearchView,
  Event,
  Filters,
  Job,
  Attempt,
  Page,
  DailyUsage,
  Delivery,
  EventDeliveries,
  LedgerEntry,
  LedgerRequest,
  Provider,
  SandboxJob,
  SandboxResult,
  SessionView,
  Watch,
  WebhookEndpoint,
  WebhookEndpointRotated,
  WebhookEndpointSecret,
};

const BASE = '/dashboard/api';

let csrfToken: string | null = null;
let onSignedOut: () => void = () => undefined;

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** The field the server refused (`error.param`), e.g. `webhook_url` or `filters.title_or[0]`. */
    readonly param?: string,
  ) {
    super(message);
  }
}

export function whenSignedOut(callback: () => void): void {
  onSignedOut = callback;
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`${BASE}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      cache: 'no-store',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch {
    throw new ApiProblem(0, 'The dashboard could not reach the server. Check your connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const json = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const error = (json as { error?: { message?: string; code?: string; param?: string } } | undefined)?.error;
    const problem = new ApiProblem(
      response.status,
      error?.message ?? `The server answered ${response.status}.`,
      error?.code,
      error?.param,
    );
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

/** The current session, if the cookie still holds one; null when signed out (the server answers 204). */
export async function resume(): Promise<SessionView | null> {
  const session = await call<SessionView | undefined>('GET', '/session');
  csrfToken = session?.csrf_token ?? null;
  return session ?? null;
}

/**
 * Ends the session; a session already gone (401) counts as signed out. Any other failure is
 * thrown with the session and its token kept, so the page can say so and sign-out can be tried again.
 */
export async function signOut(): Promise<void> {
  try {
    await call<void>('DELETE', '/session');
  } catch (error) {
    if (!(error instanceof ApiProblem && error.status === 401)) throw error;
  }
  csrfToken = null;
}

export const get = <T>(path: string) => call<T>('GET', path);
export const post = <T>(path: string, body: unknown) => call<T>('POST', path, body);
export const del = <T>(path: string) => call<T>('DELETE', path);
export const patch = <T>(path: string, body: unknown) => call<T>('PATCH', path, body);

/** The public keyless sandbox (no session, no key). */
export async function sandboxSearch(body: unknown): Promise<SandboxResult> {
  let response: Response;
  try {
    response = await fetch('/v1/sandbox/jobs/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiProblem(0, 'The dashboard could not reach the server. Check your connection and try again.');
  }
  const json = safeJson(await response.text()) as SandboxResult & {
    error?: { message?: string; code?: string; param?: string };
  };
  if (!response.ok)
    throw new ApiProblem(
      response.status,
      json?.error?.message ?? `The sandbox answered ${response.status}.`,
      json?.error?.code,
      json?.error?.param,
    );
  return json;
}

/**
 * `path` (which may carry a query of its own) asking the page at `cursor` (the first page without
 * one), sent as the query parameter `param`.
 */
export const pageAt = (path: string, cursor: string | undefined | null, param = 'cursor'): string =>
  cursor ? `${path}${path.includes('?') ? '&' : '?'}${param}=${encodeURIComponent(cursor)}` : path;
