import { jest } from '@jest/globals';
import type { Redis } from 'ioredis';
import type { PrismaService } from '@jobs/db';
import type { GatewayConfig } from '../config/gateway.config.js';
import { hashApiKey } from './api-key.js';
import { ApiKeyService } from './api-key.service.js';

const KEY = 'svc_live_0123456789abcdefghijklmnopqrstuv';
const ACCOUNT = { plan: 'pro', rateLimitLimit: 600, rateLimitWindowSeconds: 60, pinnedVersion: '2026-10-01' };

/** The neighbours stubbed: one database row and one Redis shared by every replica, each counting its reads. */
function world() {
  const row = { accountId: 'acct_1', mode: 'live', revokedAt: null as Date | null, account: ACCOUNT };
  const entries = new Map<string, string>();
  const reads = { database: 0, redis: 0 };
  const known = { key: true };
  const databaseDown = { updates: 0 };
  const prisma = {
    apiKey: {
      findUnique: async () => {
        reads.database++;
        return known.key ? { ...row } : null;
      },
      updateMany: async () => {
        if (databaseDown.updates > 0) {
          databaseDown.updates--;
          throw new Error('Connection terminated unexpectedly');
        }
        const count = row.revokedAt ? 0 : 1;
        row.revokedAt = new Date();
        return { count };
      },
    },
  } as unknown as PrismaService;
  const redisDown = { sets: 0 };
  const redis = {
    status: 'ready',
    get: async (key: string) => {
      reads.redis++;
      return entries.get(key) ?? null;
    },
    set: async (key: string, value: string, ...args: unknown[]) => {
      if (redisDown.sets > 0) {
        redisDown.sets--;
        throw new Error('Connection is closed.');
      }
      if (args.includes('NX') && entries.has(key)) return null;
      entries.set(key, value);
      return 'OK';
    },
  } as unknown as Redis;
  const config = {
    API_KEY_CACHE_TTL_SECONDS: 300,
    API_KEY_LOCAL_CACHE_MS: 500,
    API_KEY_LOCAL_CACHE_MAX_KEYS: 100,
    REDIS_TIMEOUT_MS: 1000,
  } as GatewayConfig;
  const replica = () => new ApiKeyService(prisma, redis, config);
  return { replica, reads, entries, known, redisDown, databaseDown };
}

describe('API keys resolved through the replica cache and Redis', () => {
  beforeEach(() =>
    jest.useFakeTimers({
      now: new Date('2026-11-01T00:00:00Z'),
      doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'],
    }),
  );
  afterEach(() => jest.useRealTimers());

  it('resolves a key with its account settings once, then from memory without any I/O', async () => {
    const { replica, reads } = world();
    const gateway = replica();
    const principal = await gateway.resolve(KEY);
    expect(principal).toEqual({
      accountId: 'acct_1',
      mode: 'live',
      keyHash: hashApiKey(KEY),
      plan: 'pro',
      rateLimit: 600,
      rateLimitWindowSeconds: 60,
      pinnedVersion: '2026-10-01',
    });
    expect(reads).toEqual({ database: 1, redis: 1 });
    for (let i = 0; i < 5; i++) expect(await gateway.resolve(KEY)).toEqual(principal);
    expect(reads).toEqual({ database: 1, redis: 1 });
  });

  it('reads Redis or the database once for a burst of requests on a cold key', async () => {
    const { replica, reads } = world();
    const gateway = replica();
    const answers = await Promise.all(Array.from({ length: 20 }, () => gateway.resolve(KEY)));
    expect(new Set(answers.map((a) => a?.accountId))).toEqual(new Set(['acct_1']));
    expect(reads).toEqual({ database: 1, redis: 1 });
  });

  it('refuses a revoked key on the revoking replica at once and on another once its memory lapses', async () => {
    const { replica } = world();
    const [a, b] = [replica(), replica()];
    expect(await a.resolve(KEY)).not.toBeNull();
    expect(await b.resolve(KEY)).not.toBeNull();
    expect(await a.revoke(KEY)).toBe(true);
    expect(await a.resolve(KEY)).toBeNull();
    // b answered from memory a moment ago; past API_KEY_LOCAL_CACHE_MS it reads the shared entry again.
    jest.advanceTimersByTime(501);
    expect(await b.resolve(KEY)).toBeNull();
  });

  it('keeps a revocation when a resolution that read the key as valid finishes after it', async () => {
    const { replica, entries } = world();
    const gateway = replica();
    const pending = gateway.resolve(KEY);
    await gateway.revoke(KEY);
    await pending;
    expect(await gateway.resolve(KEY)).toBeNull();
    expect(entries.get(`gateway:apikey:${hashApiKey(KEY)}`)).toBe('revoked');
  });

  it('reads an entry of another shape again from the database, and refuses malformed keys without I/O', async () => {
    const { replica, reads, entries } = world();
    entries.set(
      `gateway:apikey:${hashApiKey(KEY)}`,
      JSON.stringify({ accountId: 'acct_1', mode: 'live', keyHash: hashApiKey(KEY) }),
    );
    expect((await replica().resolve(KEY))?.plan).toBe('pro');
    expect(reads.database).toBe(1);
    expect(await replica().resolve('not-a-key')).toBeNull();
    expect(reads.redis).toBe(1);
  });
});

describe('API keys looked up for an address that sends unknown ones', () => {
  it('tells the address guard of each unknown key, and looks up nothing it refuses', async () => {
    const { replica, reads, known } = world();
    const gateway = replica();
    const guard = { refuse: false, unknown: 0 };
    const lookups = {
      before: () => {
        if (guard.refuse) throw new Error('refused');
      },
      unknown: async () => void guard.unknown++,
    };
    known.key = false;
    expect(await gateway.resolve('svc_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', lookups)).toBeNull();
    expect(guard.unknown).toBe(1);
    guard.refuse = true;
    await expect(gateway.resolve('svc_live_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', lookups)).rejects.toThrow('refused');
    expect(reads.database).toBe(1);
    // a known key in the cache is never refused: the guard runs only before a lookup
    known.key = true;
    guard.refuse = false;
    expect(await gateway.resolve(KEY, lookups)).not.toBeNull();
    guard.refuse = true;
    expect(await replica().resolve(KEY, lookups)).not.toBeNull();
    expect(guard.unknown).toBe(1);
  });
});

describe('a revocation while Redis does not take its marker', () => {
  beforeEach(() =>
    jest.useFakeTimers({
      now: new Date('2026-11-01T00:00:00Z'),
      doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'],
    }),
  );
  afterEach(() => jest.useRealTimers());

  it('answers its failure, forgets the key here at once and writes the marker once Redis is back', async () => {
    const { replica, entries, redisDown } = world();
    const [a, b] = [replica(), replica()];
    expect(await a.resolve(KEY)).not.toBeNull();
    expect(await b.resolve(KEY)).not.toBeNull();

    redisDown.sets = 2;
    await expect(a.revoke(KEY)).rejects.toThrow();
    // the revoking replica refuses it at once (the database says revoked)
    expect(await a.resolve(KEY)).toBeNull();
    // Redis back after two failed writes: the marker is in within the retries
    await jest.advanceTimersByTimeAsync(2_500);
    expect(entries.get(`gateway:apikey:${hashApiKey(KEY)}`)).toBe('revoked');
    // another replica, its memory lapsed, reads the marker, not the principal Redis held
    await jest.advanceTimersByTimeAsync(1_000);
    expect(await b.resolve(KEY)).toBeNull();
  });
});

describe('what one request does not do to another', () => {
  it("refuses a guessing address's request only, not another's for the same key at the same moment", async () => {
    const { replica, known } = world();
    known.key = false;
    const gateway = replica();
    const refused = {
      before: () => {
        throw new Error('refused');
      },
      unknown: async () => undefined,
    };
    const allowed = { before: () => undefined, unknown: async () => undefined };
    const [guesser, other] = await Promise.allSettled([
      gateway.resolve('svc_live_cccccccccccccccccccccccccccccccc', refused),
      gateway.resolve('svc_live_cccccccccccccccccccccccccccccccc', allowed),
    ]);
    expect(guesser).toMatchObject({ status: 'rejected' });
    expect(other).toEqual({ status: 'fulfilled', value: null });
  });

  it('keeps a key a revocation failed to revoke (the database refused it) valid on the revoking replica', async () => {
    const { replica, databaseDown } = world();
    const gateway = replica();
    expect(await gateway.resolve(KEY)).not.toBeNull();
    databaseDown.updates = 1;
    await expect(gateway.revoke(KEY)).rejects.toThrow();
    expect(await gateway.resolve(KEY)).not.toBeNull();
  });
});
