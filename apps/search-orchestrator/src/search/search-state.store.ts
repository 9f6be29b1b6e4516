import { Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { jsonBytes } from '@jobs/kafka';
import { execTransaction } from '@jobs/redis';
import type { Job, SearchRequested } from '@jobs/contracts';
import type { ProviderBatch, ProviderPositions, WaterfallPlan } from '@jobs/waterfall';

/** State outlives the search's deadline generously, so late batches still find it. */
export const STATE_TTL_SECONDS = 15 * 60;

export interface SearchState {
  request: SearchRequested.Value;
  plan: WaterfallPlan;
  /** Index of the wave being asked; the providers of waves up to it were tried. */
  wave: number;
  startedAt: number;
  /** Where each provider's read starts (a later page of a result set); absent: its first page. */
  from?: ProviderPositions;
  /**
   * A later page that reached the end of its stored result set: this round reads further from
   * the providers that have more, grows the set and answers the page from `offset`.
   */
  extension?: {
    set: string;
    offset: number;
    fingerprint: string;
    round: number;
    /** records asked of each provider this round (default `limit`) */ want?: number;
  };
}

/** The providers a search has asked so far, in priority order. */
export function triedProviders(state: SearchState): WaterfallPlan['providers'] {
  const asked = new Set(state.plan.waves.slice(0, state.wave + 1).flat());
  return state.plan.providers.filter((p) => asked.has(p));
}

const stateKey = (id: string) => `orchestrator:search:${id}`;
const pendingKey = (id: string) => `orchestrator:search:${id}:pending`;
/** The hash of a search's gathered messages (their jobs become its result set's, `ResultSetStore.keep`). */
export const gatheredMessagesKey = (id: string) => `orchestrator:search:${id}:batches`;
const doneKey = (id: string) => `orchestrator:search:${id}:done`;
/** Open searches by deadline (epoch ms), shared by every replica's deadline sweeper. */
const DEADLINES = 'orchestrator:deadlines';

/**
 * Opens a search's deadline, its pending wave and its state in one step; with ARGV[5] = '1' only
 * when it has no state yet (a redelivered request finds the search it already started). The
 * state is written last: a script stopped by an error keeps what it did before it, and a state
 * must never stand without its deadline (nobody would complete it).
 * KEYS: state, pending, gathered, done, deadlines. ARGV: state, ttl, deadline, search id, only
 * if new, the wave's providers. Returns 1 when opened, 0 when the state was there.
 */
const OPEN_SEARCH = `
if ARGV[5] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('ZADD', KEYS[5], ARGV[3], ARGV[4])
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
redis.call('SADD', KEYS[2], unpack(ARGV, 6))
redis.call('EXPIRE', KEYS[2], ARGV[2])
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1`;

/**
 * Records one de-duplicated message of a search (a wave of partners, or the own index leg: its
 * jobs once, its batches by job id) and tells whether its providers were the last ones awaited,
 * atomically, so exactly one orchestrator replica completes a search however the messages are
 * spread. One round trip: the search's state comes back with it (nothing is recorded for an
 * unknown or expired search), and every other recorded message when this one completed the wave
 * (the caller has this one: a search's largest message is not sent back and parsed again).
 * ARGV: ttl, the message's field and JSON, then its providers.
 */
const RECORD_GATHERED = `
local state = redis.call('GET', KEYS[3])
if not state then return {-1} end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[1])
local removed = 0
for i = 4, #ARGV do removed = removed + redis.call('SREM', KEYS[1], ARGV[i]) end
local left = redis.call('SCARD', KEYS[1])
if removed > 0 and left == 0 then
  local all = redis.call('HGETALL', KEYS[2])
  local others = {}
  for i = 1, #all, 2 do
    if all[i] ~= ARGV[2] then others[#others + 1] = all[i + 1] end
  end
  return {removed, left, state, others}
end
return {removed, left, state}
`;

/** What one de-duplicated message brought, as kept in Redis: each job once, each batch by job id. */
export interface GatheredMessage {
  jobs: Job[];
  batches: Array<Omit<ProviderBatch, 'jobs'> & { jobIds: string[] }>;
}

/**
 * The provider batches of gathered messages, each batch's jobs in its rank order, each provider
 * once: a wave redelivered after its fetcher died part-way may come again whole, beside the
 * part recorded before (the first recorded wins).
 */
export function batchesOf(messages: readonly GatheredMessage[]): ProviderBatch[] {
  const seen = new Set<string>();
  return messages.flatMap((message) => {
    const jobs = new Map(message.jobs.map((job) => [job.id, job]));
    return message.batches.flatMap(({ jobIds, ...batch }) => {
      if (seen.has(batch.provider)) return [];
      seen.add(batch.provider);
      // a batch gathered before dedupe's count was kept: none counted
      return [{ ...batch, duplicatesMerged: batch.duplicatesMerged ?? 0, jobs: jobIds.map((id) => jobs.get(id)!) }];
    });
  });
}

/** In-flight search state, shared by every orchestrator replica. */
@Injectable()
export class SearchStateStore {
  private readonly deadlineListeners: Array<(deadlineAt: number) => void> = [];

  constructor(private readonly redis: Redis) {}

  /** Called with each deadline this replica registers (the deadline sweeper wakes for it). */
  onDeadline(listener: (deadlineAt: number) => void): void {
    this.deadlineListeners.push(listener);
  }

  /**
   * Opens the search: its state, its first wave pending, its deadline. A result set grown in
   * several rounds reopens its request's state, nothing of the last round kept; `onlyIfNew` opens
   * only a search not opened before, so a redelivered request, whose first handling may have
   * answered it, neither starts it again nor resets it. Whether it opened; throws when Redis
   * failed (the message that opens the search comes again).
   */
  async open(searchId: string, state: SearchState, ttlSeconds: number, onlyIfNew = false): Promise<boolean> {
    const opened = await this.redis.eval(
      OPEN_SEARCH,
      5,
      stateKey(searchId),
      pendingKey(searchId),
      gatheredMessagesKey(searchId),
      doneKey(searchId),
      DEADLINES,
      JSON.stringify(state),
      ttlSeconds,
      state.request.deadline_at,
      searchId,
      onlyIfNew ? '1' : '0',
      ...state.plan.waves[state.wave]!,
    );
    if (opened !== 1) return false;
    for (const listener of this.deadlineListeners) listener(state.request.deadline_at);
    return true;
  }

  /** Whether the search was completed (its completion claimed). */
  async isCompleted(searchId: string): Promise<boolean> {
    return (await this.redis.exists(doneKey(searchId))) === 1;
  }

  /**
   * Exactly one caller completes a search: the batch that brings the last provider, or the
   * deadline sweeper, whichever comes first, on whichever replica.
   */
  async claimCompletion(searchId: string, ttlSeconds: number): Promise<boolean> {
    // one round trip: the deadline goes whoever claims (the sweeper has nothing left to do for it)
    const [claimed] = await execTransaction(
      this.redis.multi().set(doneKey(searchId), '1', 'EX', ttlSeconds, 'NX').zrem(DEADLINES, searchId),
      'the completion claim',
    );
    return claimed === 'OK';
  }

  /**
   * Undoes a claim whose answer failed: the search is open to a claim again and due at `retryAt`,
   * so the deadline sweeper answers it then (a redelivered batch finds its provider recorded and
   * completes nothing).
   */
  async releaseCompletion(searchId: string, retryAt: number): Promise<void> {
    await execTransaction(
      this.redis.multi().del(doneKey(searchId)).zadd(DEADLINES, retryAt, searchId),
      'a completion claim released',
    );
    for (const listener of this.deadlineListeners) listener(retryAt);
  }

  /** The earliest registered deadline (epoch ms), or null when no search is open. */
  async earliestDeadline(): Promise<number | null> {
    const [, score] = await this.redis.zrange(DEADLINES, '0', '0', 'WITHSCORES');
    return score === undefined ? null : Number(score);
  }

  /** Searches whose deadline passed before `now`, oldest first. */
  async overdue(now: number, max: number): Promise<string[]> {
    return this.redis.zrangebyscore(DEADLINES, '-inf', now, 'LIMIT', 0, max);
  }

  async forgetDeadline(searchId: string): Promise<void> {
    await this.redis.zrem(DEADLINES, searchId);
  }

  /**
   * Moves a search to its next wave. Only the caller whose batch emptied the pending set gets
   * here, so the state is written by one replica at a time.
   */
  async advance(searchId: string, state: SearchState, ttlSeconds: number): Promise<void> {
    await execTransaction(
      this.redis
        .multi()
        .set(stateKey(searchId), JSON.stringify(state), 'EX', ttlSeconds)
        .sadd(pendingKey(searchId), ...state.plan.waves[state.wave]!)
        .expire(pendingKey(searchId), ttlSeconds),
      "a search's next wave",
    );
  }

  async load(searchId: string): Promise<SearchState | null> {
    const raw = await this.redis.get(stateKey(searchId));
    return raw ? (JSON.parse(raw) as SearchState) : null;
  }

  /**
   * Records a de-duplicated message of a search in flight: null for an unknown or expired
   * search; `batches` (all of the wave's) when its providers completed it (and it was not a
   * redelivery).
   */
  async recordGathered(
    searchId: string,
    message: GatheredMessage,
    ttlSeconds: number,
  ): Promise<{ state: SearchState; complete: boolean; firstTime: boolean; batches?: ProviderBatch[] } | null> {
    const providers = message.batches.map((batch) => batch.provider);
    const reply = (await this.redis.eval(
      RECORD_GATHERED,
      3,
      pendingKey(searchId),
      gatheredMessagesKey(searchId),
      stateKey(searchId),
      ttlSeconds,
      providers.join(','),
      jsonBytes(message),
      ...providers,
    )) as [number, number?, string?, string[]?];
    const [removed, left, state, others] = reply;
    if (removed === -1 || state === undefined) return null;
    const complete = left === 0 && removed > 0;
    // this message was recorded last: the earlier ones keep the first word on a provider
    const batches =
      complete && others ? batchesOf([...others.map((raw) => JSON.parse(raw) as GatheredMessage), message]) : undefined;
    return {
      state: JSON.parse(state) as SearchState,
      complete,
      firstTime: removed > 0,
      ...(batches ? { batches } : {}),
    };
  }

  async batches(searchId: string): Promise<ProviderBatch[]> {
    const all = await this.redis.hvals(gatheredMessagesKey(searchId));
    return batchesOf(all.map((raw) => JSON.parse(raw) as GatheredMessage));
  }
}
