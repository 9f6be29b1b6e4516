import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { PrismaService } from '@jobs/db';
import { callRedis } from '@jobs/redis';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { hashApiKey, parseApiKey, PrincipalSchema, type Principal } from './api-key.js';

const cacheKey = (hash: string) => `gateway:apikey:${hash}`;
const REVOKED = 'revoked';

/** What a key's lookup in PostgreSQL (neither cache knew it) owes the client address that sent it. */
export interface KeyLookupGuard {
  /** Before the lookup: throws to refuse the request (an address that sent too many unknown keys). */
  before(): void;
  /** The lookup found no live key. */
  unknown(): Promise<void>;
}

interface LocalEntry {
  /** null: unknown or revoked. */
  principal: Principal | null;
  expiresAt: number;
}

/** A key's row read: its principal, and whether no key has that hash at all (a guess, not a revoked key). */
interface LookedUp {
  principal: Principal | null;
  unknown: boolean;
}

/**
 * Resolves API keys, with their account's settings, through two caches in front of PostgreSQL:
 * a per-replica map that answers without any I/O for API_KEY_LOCAL_CACHE_MS (at most 1 s), and
 * the Redis entry every replica shares. Revocation writes `revoked` into the Redis entry and
 * keeps a refusal in the revoking replica's own map, so the revoking replica refuses the key on
 * its very next request and every other replica once its local entry lapses (within 1 s); each
 * replica reads Redis at most once per key per local lifetime.
 * The caches are only caches: while Redis is away keys resolve from PostgreSQL alone, so the API
 * stays up (rate limits fail open, keyed POSTs are refused by the idempotency gate).
 */
@Injectable()
export class ApiKeyService {
  private readonly local = new Map<string, LocalEntry>();
  /**
   * Reads under way, so a burst on a cold key reads Redis, then PostgreSQL, once, not once per
   * request; a request's own address is judged apart (`KeyLookupGuard`), never through another's.
   */
  private readonly cacheReads = new Map<string, Promise<Principal | null | undefined>>();
  private readonly rowReads = new Map<string, Promise<LookedUp>>();
  /**
   * Counts this replica's revocations: a resolution that began before one is not remembered (it may have read the key
   * as valid).
   */
  private revocations = 0;

  constructor(
    private readonly prisma: PrismaService,
    private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async resolve(key: string, lookups?: KeyLookupGuard): Promise<Principal | null> {
    if (!parseApiKey(key)) return null;
    return this.resolveHash(hashApiKey(key), lookups);
  }

  /**
   * The same resolution by the key's hash, through the same caches: the dashboard's sessions
   * keep only the hash of the key they were opened with, so a session ends within the same
   * bound as the key (at most API_KEY_LOCAL_CACHE_MS after its revocation, on every replica).
   */
  async resolveHash(keyHash: string, lookups?: KeyLookupGuard): Promise<Principal | null> {
    const hit = this.local.get(keyHash);
    if (hit && hit.expiresAt > Date.now()) return hit.principal;
    const revocationsBefore = this.revocations;
    let principal = await once(this.cacheReads, keyHash, () => this.cached(keyHash));
    if (principal === undefined) {
      lookups?.before();
      const row = await once(this.rowReads, keyHash, () => this.lookUp(keyHash));
      if (row.unknown) await lookups?.unknown();
      principal = row.principal;
    }
    if (this.revocations === revocationsBefore) this.remember(keyHash, principal);
    return principal;
  }

  /** The Redis entry: the principal, null for a key known revoked or unknown, undefined when there is none. */
  private async cached(keyHash: string): Promise<Principal | null | undefined> {
    const cached = await this.cache((redis) => redis.get(cacheKey(keyHash)));
    if (cached === REVOKED) return null;
    if (!cached) return undefined;
    // An entry in another shape (written by an older gateway) is read again from the database.
    const parsed = PrincipalSchema.safeParse(safeJson(cached));
    return parsed.success ? parsed.data : undefined;
  }

  /** The key's row with its account's (one query), which then fills the Redis entry. */
  private async lookUp(keyHash: string): Promise<LookedUp> {
    const row = await this.prisma.apiKey.findUnique({
      where: { keyHash },
      select: {
        accountId: true,
        mode: true,
        revokedAt: true,
        account: { select: { plan: true, rateLimitLimit: true, rateLimitWindowSeconds: true, pinnedVersion: true } },
      },
    });
    if (!row || row.revokedAt) {
      // Unknown keys are cached briefly too: a key guessed again is not looked up again.
      await this.cache((redis) => redis.set(cacheKey(keyHash), REVOKED, 'EX', 30));
      return { principal: null, unknown: !row };
    }
    const principal: Principal = {
      accountId: row.accountId,
      mode: row.mode,
      keyHash,
      plan: row.account.plan,
      rateLimit: row.account.rateLimitLimit,
      rateLimitWindowSeconds: row.account.rateLimitWindowSeconds,
      pinnedVersion: row.account.pinnedVersion,
    };
    // NX: a revocation that wrote `revoked` since the row was read must not be overwritten.
    await this.cache((redis) =>
      redis.set(cacheKey(keyHash), JSON.stringify(principal), 'EX', this.config.API_KEY_CACHE_TTL_SECONDS, 'NX'),
    );
    return { principal, unknown: false };
  }

  private remember(keyHash: string, principal: Principal | null): void {
    // Bounded: past the cap the map starts over (a flood of guessed keys must not grow it without end).
    if (this.local.size >= this.config.API_KEY_LOCAL_CACHE_MAX_KEYS) this.local.clear();
    this.local.set(keyHash, { principal, expiresAt: Date.now() + this.config.API_KEY_LOCAL_CACHE_MS });
  }

  /**
   * A cache call's answer, or undefined when Redis does not give one in time (the caller goes on without the cache).
   */
  private async cache<T>(call: (redis: Redis) => Promise<T>): Promise<T | undefined> {
    try {
      return await callRedis(this.redis, call, this.config.REDIS_TIMEOUT_MS, 'API-key cache');
    } catch {
      return undefined;
    }
  }

  /** Revokes a key at once: the database, the cache entry every replica reads and this replica's own. */
  async revoke(key: string): Promise<boolean> {
    return this.revokeHash(hashApiKey(key));
  }

  /**
   * The same revocation by the key's hash (the dashboard revokes keys it lists, never shown in full
   * again). The database first (the truth), then the marker every replica reads: when Redis does
   * not take the marker (a blip) the revocation answers 500 and the marker is written again in the
   * background until Redis takes it, since a principal Redis still holds would otherwise be
   * served for the rest of its lifetime. Once the database has it, this replica refuses the key.
   */
  async revokeHash(keyHash: string): Promise<boolean> {
    // a failure here revoked nothing: the key stays valid everywhere, this replica included
    const { count } = await this.prisma.apiKey.updateMany({
      where: { keyHash, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    try {
      await this.markRevoked(keyHash);
    } catch (error) {
      this.markRevokedLater(keyHash);
      throw error;
    } finally {
      this.revocations++;
      // refused here without asking Redis, which may still hold the principal
      this.local.set(keyHash, {
        principal: null,
        expiresAt: Date.now() + this.config.API_KEY_CACHE_TTL_SECONDS * 1000,
      });
      this.cacheReads.delete(keyHash);
      this.rowReads.delete(keyHash);
    }
    return count > 0;
  }

  private markRevoked(keyHash: string): Promise<unknown> {
    return callRedis(
      this.redis,
      (redis) => redis.set(cacheKey(keyHash), REVOKED, 'EX', this.config.API_KEY_CACHE_TTL_SECONDS),
      this.config.REDIS_TIMEOUT_MS,
      'API-key revocation',
    );
  }

  /** Tries the marker again every second for as long as Redis may hold the key's principal. */
  private markRevokedLater(keyHash: string, triesLeft = this.config.API_KEY_CACHE_TTL_SECONDS): void {
    if (triesLeft <= 0) return;
    setTimeout(() => {
      this.markRevoked(keyHash).catch(() => this.markRevokedLater(keyHash, triesLeft - 1));
    }, 1_000).unref();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The read of `key` under way in `reads`, or `read` started as it (gone from the map once settled). */
function once<T>(reads: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  const running = reads.get(key);
  if (running) return running;
  const started: Promise<T> = read().finally(() => {
    if (reads.get(key) === started) reads.delete(key);
  });
  reads.set(key, started);
  return started;
}
