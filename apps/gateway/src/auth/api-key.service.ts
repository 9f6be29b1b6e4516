import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { PrismaService } from '@jobs/db';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { hashApiKey, parseApiKey, type Principal } from './api-key.js';

const cacheKey = (hash: string) => `gateway:apikey:${hash}`;
const REVOKED = 'revoked';

/**
 * Resolves API keys through a Redis cache in front of PostgreSQL. Revocation overwrites the
 * cache entry, so a revoked key fails on its very next request on every gateway replica.
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
    const cached = await this.redis.get(cacheKey(keyHash));
    if (cached === REVOKED) return null;
    if (cached) return JSON.parse(cached) as Principal;
    const row = await this.prisma.apiKey.findUnique({ where: { keyHash } });
    if (!row || row.revokedAt) {
      // Unknown keys are cached briefly too, so guessing keys cannot hammer the database.
      await this.redis.set(cacheKey(keyHash), REVOKED, 'EX', 30);
      return null;
    }
    const principal: Principal = { accountId: row.accountId, mode: row.mode, keyHash };
    await this.redis.set(cacheKey(keyHash), JSON.stringify(principal), 'EX', this.config.API_KEY_CACHE_TTL_SECONDS);
    return principal;
  }

  /** Revokes a key at once: database first, then the cache entry every replica reads. */
  async revoke(key: string): Promise<boolean> {
    const keyHash = hashApiKey(key);
    const { count } = await this.prisma.apiKey.updateMany({ where: { keyHash, revokedAt: null }, data: { revokedAt: new Date() } });
    await this.redis.set(cacheKey(keyHash), REVOKED, 'EX', this.config.API_KEY_CACHE_TTL_SECONDS);
    return count > 0;
  }
}
