import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { PrismaService } from '@jobs/db';
import { callRedis } from '@jobs/redis';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { hashApiKey, parseApiKey, type Principal } from './api-key.js';

const cacheKey = (hash: string) => `gateway:apikey:${hash}`;
const REVOKED = 'revoked';

/**
 * Resolves API keys through a Redis cache in front of PostgreSQL. Revocation overwrites the
 * cache entry, so a revoked key fails on its very next request on every gateway replica.
 * The cache is only a cache: while Redis is away keys resolve from PostgreSQL alone, so the API
 * stays up (rate limits fail open, keyed POSTs are refused by the idempotency interceptor).
 */
@Injectable()
export class ApiKeyService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async resolve(key: string): Promise<Principal | null> {
    if (!parseApiKey(key)) return null;
    const keyHash = hashApiKey(key);
    const cached = await this.cache((redis) => redis.get(cacheKey(keyHash)));
    if (cached === REVOKED) return null;
    if (cached) return JSON.parse(cached) as Principal;
    const row = await this.prisma.apiKey.findUnique({ where: { keyHash } });
    if (!row || row.revokedAt) {
      // Unknown keys are cached briefly too, so guessing keys cannot hammer the database.
      await this.cache((redis) => redis.set(cacheKey(keyHash), REVOKED, 'EX', 30));
      return null;
    }
    const principal: Principal = { accountId: row.accountId, mode: row.mode, keyHash };
    await this.cache((redis) => redis.set(cacheKey(keyHash), JSON.stringify(principal), 'EX', this.config.API_KEY_CACHE_TTL_SECONDS));
    return principal;
  }

  /** A cache call's answer, or undefined when Redis does not give one in time (the caller goes on without the cache). */
  private async cache<T>(call: (redis: Redis) => Promise<T>): Promise<T | undefined> {
    try {
      return await callRedis(this.redis, call, this.config.REDIS_TIMEOUT_MS, 'API-key cache');
    } catch {
      return undefined;
    }
  }

  /** Revokes a key at once: database first, then the cache entry every replica reads. */
  async revoke(key: string): Promise<boolean> {
    const keyHash = hashApiKey(key);
    const { count } = await this.prisma.apiKey.updateMany({ where: { keyHash, revokedAt: null }, data: { revokedAt: new Date() } });
    await this.redis.set(cacheKey(keyHash), REVOKED, 'EX', this.config.API_KEY_CACHE_TTL_SECONDS);
    return count > 0;
  }
}
