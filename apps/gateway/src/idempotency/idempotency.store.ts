import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { callRedis } from '@jobs/redis';
import type { SearchResponded } from '@jobs/contracts';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import type { IdempotencyRecord } from './idempotency-record.js';

/** Sets the record unless the key already has one; answers the existing record (or nil when set). */
const CLAIM_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if current then return current end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return false
`;

/** Replaces the record only while it still belongs to request ARGV[1] (compare-and-set), keeping its expiry. */
const REPLACE_IF_OWNER_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
if cjson.decode(current).request_id ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1
`;

const searchMarkerKey = (searchId: string) => `gateway:idem:search:${searchId}`;
const searchAnswerKey = (searchId: string) => `gateway:idem:answer:${searchId}`;

/**
 * Idempotency records in Redis, kept IDEMPOTENCY_RETENTION_SECONDS (24 h by default) from the
 * key's first use. The key is a hash of method, path and Idempotency-Key under the account, so
 * the same key on two endpoints or two accounts never collides.
 */
@Injectable()
export class IdempotencyStore {
  constructor(
    private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  keyFor(accountId: string, method: string, path: string, idempotencyKey: string): string {
    const scope = createHash('sha256').update(`${method} ${path} ${idempotencyKey}`).digest('hex');
    return `gateway:idem:${accountId}:${scope}`;
  }

  /** null: the record was created and the caller owns the key; otherwise the record already there. */
  async claim(key: string, record: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    const existing = (await this.bounded((redis) => redis.eval(CLAIM_SCRIPT, 1, key, JSON.stringify(record), String(this.config.IDEMPOTENCY_RETENTION_SECONDS)), 'claim')) as string | null;
    return existing ? (JSON.parse(existing) as IdempotencyRecord) : null;
  }

  async get(key: string): Promise<IdempotencyRecord | null> {
    const raw = await this.redis.get(key);
    return raw ? (JSON.parse(raw) as IdempotencyRecord) : null;
  }

  /** Writes `next` if `ownerRequestId` still owns the key; false when another request took it over. */
  async replaceIfOwner(key: string, ownerRequestId: string, next: IdempotencyRecord): Promise<boolean> {
    return (await this.bounded((redis) => redis.eval(REPLACE_IF_OWNER_SCRIPT, 1, key, ownerRequestId, JSON.stringify(next)), 'replace')) === 1;
  }

  /** Remembers that the answer of this sync search is wanted by an idempotency record. */
  async watchSearch(searchId: string): Promise<void> {
    await this.bounded((redis) => redis.set(searchMarkerKey(searchId), '1', 'EX', this.config.IDEMPOTENCY_RETENTION_SECONDS), 'watch search');
  }

  /** Whether an idempotency record wants this search's answer (it ran under an Idempotency-Key). */
  async isWatched(searchId: string): Promise<boolean> {
    return (await this.redis.exists(searchMarkerKey(searchId))) === 1;
  }

  /** Keeps the answer of a watched search, for a retry with the same key. */
  async keepAnswer(answer: SearchResponded.Value): Promise<void> {
    await this.redis.set(searchAnswerKey(answer.search_id), JSON.stringify(answer), 'EX', this.config.IDEMPOTENCY_RETENTION_SECONDS);
  }

  async answerOf(searchId: string): Promise<SearchResponded.Value | null> {
    const raw = await this.bounded((redis) => redis.get(searchAnswerKey(searchId)), 'search answer');
    return raw ? (JSON.parse(raw) as SearchResponded.Value) : null;
  }

  /** Calls on the request path fail fast while Redis is away (the interceptor then refuses the request). */
  private bounded<T>(call: (redis: Redis) => Promise<T>, what: string): Promise<T> {
    return callRedis(this.redis, call, this.config.REDIS_TIMEOUT_MS, `Idempotency-Key ${what}`);
  }
}
