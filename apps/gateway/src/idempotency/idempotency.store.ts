import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { callRedis } from '@jobs/redis';
import type { SearchPageCharged, SearchPageGathered, SearchResponded } from '@jobs/contracts';
import { joinSearchAnswer } from '../search/search-answer.js';
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

/** Deletes the record only while it still belongs to request ARGV[1]. */
const RELEASE_IF_OWNER_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
if cjson.decode(current).request_id ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
`;

const searchMarkerKey = (searchId: string) => `gateway:idem:search:${searchId}`;
const searchAnswerKey = (searchId: string) => `gateway:idem:answer:${searchId}`;
const searchPageKey = (searchId: string) => `gateway:idem:page:${searchId}`;
const searchChargeKey = (searchId: string) => `gateway:idem:charged:${searchId}`;

/** Billing answered a charged page whose page (the other half of the answer) is not kept yet. */
export const ANSWER_JOINING = 'joining';
/** Billing took the page after the gateway stopped waiting and charged nothing: none will come. */
export const ANSWER_EXPIRED = 'expired';

/**
 * Idempotency records in Redis, kept IDEMPOTENCY_RETENTION_SECONDS (24 h by default) from the
 * key's first use. The key is a hash of method, path and Idempotency-Key under the account and
 * the key mode, so the same key on two endpoints, two accounts or two modes never collides.
 */
@Injectable()
export class IdempotencyStore {
  constructor(
    private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * The mode is part of the scope: a test key reusing a live request's Idempotency-Key starts
   * its own request and never gets the live answer (nor the ids derived from the key: the watch,
   * the async search). Live keys keep the form they had before modes were separated, so a retry
   * across a deploy still finds its record.
   */
  keyFor(accountId: string, mode: 'live' | 'test', method: string, path: string, idempotencyKey: string): string {
    const scope = createHash('sha256').update(`${method} ${path} ${idempotencyKey}`).digest('hex');
    return mode === 'live' ? `gateway:idem:${accountId}:${scope}` : `gateway:idem:${accountId}:${mode}:${scope}`;
  }

  /** null: the record was created and the caller owns the key; otherwise the record already there. */
  async claim(key: string, record: IdempotencyRecord): Promise<IdempotencyRecord | null> {
    const existing = (await this.bounded(
      (redis) =>
        redis.eval(CLAIM_SCRIPT, 1, key, JSON.stringify(record), String(this.config.IDEMPOTENCY_RETENTION_SECONDS)),
      'claim',
    )) as string | null;
    return existing ? (JSON.parse(existing) as IdempotencyRecord) : null;
  }

  async get(key: string): Promise<IdempotencyRecord | null> {
    const raw = await this.redis.get(key);
    return raw ? (JSON.parse(raw) as IdempotencyRecord) : null;
  }

  /** Writes `next` if `ownerRequestId` still owns the key; false when another request took it over. */
  async replaceIfOwner(key: string, ownerRequestId: string, next: IdempotencyRecord): Promise<boolean> {
    return (
      (await this.bounded(
        (redis) => redis.eval(REPLACE_IF_OWNER_SCRIPT, 1, key, ownerRequestId, JSON.stringify(next)),
        'replace',
      )) === 1
    );
  }

  /** Forgets the key if `ownerRequestId` still owns it: the next request with it runs afresh. */
  async releaseIfOwner(key: string, ownerRequestId: string): Promise<boolean> {
    return (
      (await this.bounded((redis) => redis.eval(RELEASE_IF_OWNER_SCRIPT, 1, key, ownerRequestId), 'release')) === 1
    );
  }

  /** Remembers that the answer of this sync search is wanted by an idempotency record. */
  async watchSearch(searchId: string): Promise<void> {
    await this.bounded(
      (redis) => redis.set(searchMarkerKey(searchId), '1', 'EX', this.config.IDEMPOTENCY_RETENTION_SECONDS),
      'watch search',
    );
  }

  /** Whether an idempotency record wants this search's answer (it ran under an Idempotency-Key). */
  async isWatched(searchId: string): Promise<boolean> {
    return (await this.redis.exists(searchMarkerKey(searchId))) === 1;
  }

  /** Keeps the answer of a watched search, for a retry with the same key. */
  keepAnswer(answer: SearchResponded.Value): Promise<void> {
    return this.keep(searchAnswerKey(answer.search_id), answer);
  }

  /** Keeps a watched search's page; its answer is joined when read (`answerOf`). */
  keepPage(page: SearchPageGathered.Value): Promise<void> {
    return this.keep(searchPageKey(page.search_id), page);
  }

  /**
   * Keeps billing's outcome for a watched search's page. A refusal (`expired`) never replaces an
   * outcome kept before it: during a rebalance one replica may refuse a page another charged.
   */
  async keepCharge(charged: SearchPageCharged.Value): Promise<void> {
    const key = searchChargeKey(charged.search_id);
    if (charged.outcome !== 'expired') return this.keep(key, charged);
    await this.redis.set(key, JSON.stringify(charged), 'EX', this.config.IDEMPOTENCY_RETENTION_SECONDS, 'NX');
  }

  /**
   * A watched search whose request ended before the pipeline had it (its publish failed): nothing
   * runs under its id, so a retry under the same key runs afresh at once, as after billing's
   * `expired`, instead of waiting out the key's lease for an answer that cannot come. Kept where
   * billing said nothing yet (a publish whose acknowledgement was lost may still be charged; its
   * outcome then replaces this, and a job is charged once either way).
   */
  async keepNeverSent(searchId: string): Promise<void> {
    if (!(await this.bounded((redis) => redis.exists(searchMarkerKey(searchId)), 'search marker'))) return;
    const refusal = JSON.stringify({ search_id: searchId, outcome: 'expired' });
    await this.bounded(
      (redis) => redis.set(searchChargeKey(searchId), refusal, 'EX', this.config.IDEMPOTENCY_RETENTION_SECONDS, 'NX'),
      'never sent',
    );
  }

  private async keep(key: string, value: unknown): Promise<void> {
    await this.redis.set(key, JSON.stringify(value), 'EX', this.config.IDEMPOTENCY_RETENTION_SECONDS);
  }

  /**
   * The search's answer: a final one (estimate, failure) or a charged page joined from its two
   * halves; `ANSWER_JOINING` when billing has answered and the page is still on its way (the two
   * topics are read side by side); `ANSWER_EXPIRED` when billing refused the page as too late;
   * null when there is no answer yet.
   */
  async answerOf(
    searchId: string,
  ): Promise<SearchResponded.Value | typeof ANSWER_JOINING | typeof ANSWER_EXPIRED | null> {
    const [answer, charged, page] = await this.bounded(
      (redis) => redis.mget(searchAnswerKey(searchId), searchChargeKey(searchId), searchPageKey(searchId)),
      'search answer',
    );
    if (answer) return JSON.parse(answer) as SearchResponded.Value;
    if (!charged) return null;
    const outcome = JSON.parse(charged) as SearchPageCharged.Value;
    if (outcome.outcome === 'expired') return ANSWER_EXPIRED;
    return (
      joinSearchAnswer(outcome, page ? (JSON.parse(page) as SearchPageGathered.Value) : undefined) ?? ANSWER_JOINING
    );
  }

  /** Calls on the request path fail fast while Redis is away (the interceptor then refuses the request). */
  private bounded<T>(call: (redis: Redis) => Promise<T>, what: string): Promise<T> {
    return callRedis(this.redis, call, this.config.REDIS_TIMEOUT_MS, `Idempotency-Key ${what}`);
  }
}
