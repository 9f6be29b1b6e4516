import { type CanActivate, createParamDecorator, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../auth/api-key.js';
import { ApiKeyService } from '../auth/api-key.service.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import {
  csrfTokenMatches,
  CSRF_HEADER,
  isSafeMethod,
  isWellFormedToken,
  readCookie,
  sameOrigin,
  SESSION_COOKIE,
  type DashboardSession,
} from './dashboard-session.js';
import { DashboardSessionStore } from './dashboard-session.store.js';
import { requestProtocol } from './dashboard-cookie.js';

export interface DashboardCaller {
  sessionId: string;
  session: DashboardSession;
  /** What the session's key resolves to now (plan, mode): the key's own caches and revocation. */
  principal: Principal;
}

declare module 'fastify' {
  interface FastifyRequest {
    dashboard?: DashboardCaller;
  }
}

/**
 * The dashboard API's authentication: the session cookie, a live session, the key it was opened
 * with still valid (revoking that key ends its sessions within the key cache's bound), and for
 * every change the CSRF token and a same-origin request. The request gets no `principal`, so the
 * public API's Idempotency-Key does not apply; the account's rate limit does (RateLimitGate reads
 * `request.dashboard`).
 */
@Injectable()
export class DashboardSessionGuard implements CanActivate {
  constructor(
    private readonly sessions: DashboardSessionStore,
    private readonly keys: ApiKeyService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const caller = await this.resolve(request);
    if (!caller.signedIn) throw new ApiError('unauthorized', caller.reason);
    if (!isSafeMethod(request.method)) {
      const origin = {
        origin: header(request, 'origin'),
        host: header(request, 'host'),
        secFetchSite: header(request, 'sec-fetch-site'),
      };
      if (!sameOrigin(origin, requestProtocol(request, this.config)))
        throw forbidden('This change did not come from the dashboard itself.');
      if (!csrfTokenMatches(caller.session, request.headers[CSRF_HEADER]))
        throw forbidden(`Missing or wrong ${CSRF_HEADER} header: reload the dashboard.`);
    }
    request.dashboard = caller;
    return true;
  }

  /**
   * The request's session, if its cookie opens a live one whose key is still valid; a session
   * whose key was revoked is closed here. Reads only: the CSRF and origin checks are the guard's.
   */
  async resolve(request: FastifyRequest): Promise<(DashboardCaller & { signedIn: true }) | NotSignedIn> {
    const sessionId = readCookie(request.headers.cookie, SESSION_COOKIE);
    const session = isWellFormedToken(sessionId) ? await this.sessions.read(sessionId) : null;
    if (!sessionId || !session)
      return { signedIn: false, reason: 'Not signed in, or the session has expired: sign in again.' };
    const principal = await this.keys.resolveHash(session.keyHash);
    if (!principal || principal.accountId !== session.accountId) {
      await this.sessions.close(sessionId);
      return {
        signedIn: false,
        reason: 'The API key this session was opened with has been revoked: sign in again with a valid key.',
      };
    }
    return { signedIn: true, sessionId, session, principal };
  }
}

/**
 * For a route that answers signed-out visitors too (GET /dashboard/api/session): the session, if
 * any, goes on the request as DashboardSessionGuard puts it, so the account's rate limit applies;
 * without one the request passes with no `request.dashboard`.
 */
@Injectable()
export class DashboardSessionIfAny implements CanActivate {
  constructor(private readonly sessions: DashboardSessionGuard) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const caller = await this.sessions.resolve(request);
    if (caller.signedIn) request.dashboard = caller;
    return true;
  }
}

/** Why a request opens no session, in words. */
export interface NotSignedIn {
  signedIn: false;
  reason: string;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** 403 (the catalog's `unauthorized` code, another status): signed in, but this change is refused. */
function forbidden(message: string): ApiError {
  return new ApiError('unauthorized', message, {}, {}, 403);
}

export const CurrentDashboard = createParamDecorator((_: unknown, context: ExecutionContext): DashboardCaller => {
  const caller = context.switchToHttp().getRequest<FastifyRequest>().dashboard;
  if (!caller) throw new ApiError('unauthorized', 'Not signed in.');
  return caller;
});
