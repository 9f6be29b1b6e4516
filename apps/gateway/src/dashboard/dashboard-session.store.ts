import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { callRedis } from '@jobs/redis';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import {
  newSession,
  parseStoredSession,
  sessionStoreKey,
  storeTtlSeconds,
  type DashboardSession,
} from './dashboard-session.js';

/**
 * Dashboard sessions in Redis, each under the hash of its id with a TTL: the idle window,
 * renewed on use, never past the absolute end. Every gateway replica reads the same entries,
 * so a sign-out on one replica ends the session on all of them at once.
 */
@Injectable()
export class DashboardSessionStore {
  constructor(
    private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async open(input: {
    accountId: string;
    keyHash: string;
    keyPrefix: string;
  }): Promise<{ sessionId: string; session: DashboardSession }> {
    const now = Date.now();
    const opened = newSession({ ...input, now, maxSeconds: this.config.DASHBOARD_SESSION_MAX_SECONDS });
    const ttl = storeTtlSeconds(opened.session, now, this.config.DASHBOARD_SESSION_IDLE_SECONDS);
    await this.call(
      (redis) => redis.set(sessionStoreKey(opened.sessionId), JSON.stringify(opened.session), 'EX', ttl),
      'open',
    );
    return opened;
  }

  /** The live session of this id, its idle window renewed; null when unknown, lapsed or malformed. */
  async read(sessionId: string): Promise<DashboardSession | null> {
    const key = sessionStoreKey(sessionId);
    const now = Date.now();
    const session = parseStoredSession(await this.call((redis) => redis.get(key), 'read'), now);
    if (!session) return null;
    const ttl = storeTtlSeconds(session, now, this.config.DASHBOARD_SESSION_IDLE_SECONDS);
    if (ttl <= 0) {
      await this.close(sessionId);
      return null;
    }
    await this.call((redis) => redis.expire(key, ttl), 'renew');
    return session;
  }

  async close(sessionId: string): Promise<void> {
    await this.call((redis) => redis.del(sessionStoreKey(sessionId)), 'close');
  }

  /** Sessions need Redis: without it the dashboard answers 500 (the public API keeps serving). */
  private call<T>(call: (redis: Redis) => Promise<T>, what: string): Promise<T> {
    return callRedis(this.redis, call, this.config.REDIS_TIMEOUT_MS, `dashboard session ${what}`);
  }
}
