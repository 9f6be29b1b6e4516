import { Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { JobSearchRequest } from '@jobs/contracts';
import { digestOf } from '@jobs/cursors';
import type { ProviderPositions, SearchResult } from '@jobs/waterfall';

/** How long the next pages of a search stay available. */
export const RESULT_SET_TTL_SECONDS = 60 * 60;

export interface ResultSet extends SearchResult {
  /** Which request the pages belong to: the same filters, waterfall and limit on every page. */
  fingerprint: string;
  /** Where each provider's next read starts when a page reaches the end of the set (null: no more). */
  positions?: ProviderPositions;
}

const key = (id: string) => `orchestrator:resultset:${id}`;

/** The request parts that must not change between the pages of one result set. */
export function requestFingerprint(accountId: string, request: Pick<JobSearchRequest, 'filters' | 'waterfall' | 'limit'>): string {
  return digestOf({ accountId, filters: request.filters, waterfall: request.waterfall, limit: request.limit }, 'base64url');
}


/**
 * One search's result so far, kept so that its later pages come from the same set: no job
 * twice, none skipped, whatever the providers return in the meantime. When a page reaches its
 * end and a provider has more, the set grows (jobs appended, never reordered).
 */
@Injectable()
export class ResultSetStore {
  constructor(private readonly redis: Redis) {}

  async save(id: string, set: ResultSet): Promise<void> {
    await this.redis.set(key(id), JSON.stringify(set), 'EX', RESULT_SET_TTL_SECONDS);
  }

  async load(id: string): Promise<ResultSet | null> {
    const raw = await this.redis.get(key(id));
    return raw ? (JSON.parse(raw) as ResultSet) : null;
  }
}
