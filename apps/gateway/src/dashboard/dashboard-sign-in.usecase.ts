import { Injectable } from '@nestjs/common';
import { hashApiKey, parseApiKey } from '../auth/api-key.js';
import { ApiKeyService } from '../auth/api-key.service.js';
import { ApiError } from '../http/api-error.js';
import type { DashboardSession } from './dashboard-session.js';
import { DashboardSessionStore } from './dashboard-session.store.js';

/** Exchanges a valid live key for a new session (a new id every time: no fixation); the key is not kept. */
@Injectable()
export class DashboardSignInUseCase {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly sessions: DashboardSessionStore,
  ) {}

  async signIn(key: string): Promise<{ sessionId: string; session: DashboardSession }> {
    const parsed = parseApiKey(key);
    const principal = parsed ? await this.keys.resolve(key) : null;
    if (!parsed || !principal)
      throw new ApiError('unauthorized', 'That API key is not valid (unknown, malformed or revoked).');
    if (principal.mode !== 'live')
      throw new ApiError('unauthorized', 'Sign in with a live key (svc_live_...); test keys only reach the sandbox.');
    return this.sessions.open({
      accountId: principal.accountId,
      keyHash: hashApiKey(key),
      keyPrefix: key.slice(0, 12),
    });
  }

  signOut(sessionId: string): Promise<void> {
    return this.sessions.close(sessionId);
  }
}
