import { Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { Job, JobSearchRequest } from '@jobs/contracts';
import { digestOf } from '@jobs/cursors';
import { execTransaction } from '@jobs/redis';
import type { ProviderPositions, SearchResult } from '@jobs/waterfall';

/** How long the next pages of a search stay available. */
export const RESULT_SET_TTL_SECONDS = 60 * 60;

export interface ResultSet extends SearchResult {
  /** Which request the pages belong to: the same filters, waterfall and limit on every page. */
  fingerprint: string;
  /** Where each provider's next read starts when a page reaches the end of the set (null: no more). */
  positions?: ProviderPositions;
}

/** What is kept under the set's key: the jobs by id, in page order; their bodies are in the jobs hash. */
interface StoredSet extends Omit<ResultSet, 'matching'> {
  ids: string[];
}

const key = (id: string) => `orchestrator:resultset:${id}`;
/** A hash of JSON values, each with `jobs`: the search's gathered messages, then each round that grew the set. */
const jobsKey = (id: string) => `orchestrator:resultset:${id}:jobs`;

/**
 * The request parts that must not change between the pages of one result set. `max_credits` is
 * not one of them: it caps what one request may charge, not which jobs the set holds, so a walk
 * within a budget sends each page what is left of it.
 */
export function requestFingerprint(
  accountId: string,
  request: Pick<JobSearchRequest, 'filters' | 'waterfall' | 'limit'>,
): string {
  const { max_credits: _perRequestCap, ...waterfall } = request.waterfall;
  return digestOf({ accountId, filters: request.filters, waterfall, limit: request.limit }, 'base64url');
}

const stored = ({ matching, ...set }: ResultSet): StoredSet => ({ ...set, ids: matching.map((job) => job.id) });

/**
 * One search's result so far, kept so that its later pages come from the same set: no job
 * twice, none skipped, whatever the providers return in the meantime. When a page reaches its
 * end and a provider has more, the set grows (jobs appended, never reordered).
 *
 * The set's jobs are not written again: the search's gathered messages, already in Redis, become
 * the set's jobs hash (a RENAME), and the set itself is the ids in page order. A round that grows
 * the set adds only its new jobs: a first page never writes again the jobs the gathered
 * messages already hold.
 */
@Injectable()
export class ResultSetStore {
  constructor(private readonly redis: Redis) {}

  /**
   * A first page's set, whose jobs are all in the search's gathered messages (the hash under `gatheredKey`, moved
   * here).
   */
  async keep(id: string, set: ResultSet, gatheredKey: string): Promise<void> {
    const write = this.redis.multi().set(key(id), JSON.stringify(stored(set)), 'EX', RESULT_SET_TTL_SECONDS);
    // a set without jobs (every provider timed out) may have no gathered messages at all
    if (set.matching.length > 0) write.rename(gatheredKey, jobsKey(id)).expire(jobsKey(id), RESULT_SET_TTL_SECONDS);
    await execTransaction(write, 'the result set transaction');
  }

  /** The set grown by a round: `added` are the jobs it did not have, appended in this order. */
  async grow(id: string, set: ResultSet, added: readonly Job[], round: number): Promise<void> {
    const write = this.redis.multi().set(key(id), JSON.stringify(stored(set)), 'EX', RESULT_SET_TTL_SECONDS);
    if (added.length > 0) write.hset(jobsKey(id), `round:${round}:${Date.now()}`, JSON.stringify({ jobs: added }));
    await execTransaction(write.expire(jobsKey(id), RESULT_SET_TTL_SECONDS), 'the result set transaction');
  }

  /** The set, or null when it expired (or any of its jobs is missing, which only an expiry causes). */
  async load(id: string): Promise<ResultSet | null> {
    const replies = await execTransaction(this.redis.multi().get(key(id)).hvals(jobsKey(id)), 'the result set read');
    const raw = replies[0] as string | null;
    if (!raw) return null;
    const parsed = JSON.parse(raw) as StoredSet | ResultSet;
    // a set kept whole by a replica of the version before (until its hour is up)
    if ('matching' in parsed) return { ...parsed, creditedTo: parsed.creditedTo ?? {} };
    const { ids, ...set } = parsed;
    const jobs = new Map<string, Job>();
    for (const part of replies[1] as string[]) {
      for (const job of (JSON.parse(part) as { jobs: Job[] }).jobs) if (!jobs.has(job.id)) jobs.set(job.id, job);
    }
    const matching: Job[] = [];
    for (const jobId of ids) {
      const job = jobs.get(jobId);
      if (!job) return null;
      matching.push(job);
    }
    return { ...set, creditedTo: set.creditedTo ?? {}, matching };
  }
}
