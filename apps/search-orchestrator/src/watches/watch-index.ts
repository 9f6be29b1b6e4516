import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { Job } from '@jobs/contracts';
import { titleWords } from '@jobs/job-filters';
import { isLive, type WatchRecord } from './watch.js';
import { WatchStore } from './watch.store.js';

/**
 * Moved by every change of a watch (create, pause, resume, delete): every matcher replica reloads its index when it
 * moves.
 */
export const WATCHES_VERSION_KEY = 'orchestrator:watches:version';

/**
 * The live watches, indexed for the matcher (pure): by company domain (company watches, and
 * search watches limited to companies), by the first word of each title keyword (search watches
 * with `title_or`: a keyword matches when each of its words starts a title word, so the job's
 * title words and their prefixes find every candidate), by country (search watches limited to
 * countries: a job of unknown country matches none of them), and the rest, which any change may
 * concern. Candidates are then checked with the watch rules (`watch-events.ts`), so the index
 * only has to never miss one.
 */
export class WatchCandidates {
  private readonly byDomain = new Map<string, WatchRecord[]>();
  private readonly byTitleWord = new Map<string, WatchRecord[]>();
  private readonly byCountry = new Map<string, WatchRecord[]>();
  private readonly unindexed: WatchRecord[] = [];
  /** Each live watch's place, oldest first: candidates are ordered by it, not by comparing dates. */
  private readonly rank = new Map<WatchRecord, number>();

  constructor(watches: readonly WatchRecord[]) {
    const add = (map: Map<string, WatchRecord[]>, key: string, watch: WatchRecord) => {
      const list = map.get(key);
      if (list) list.push(watch);
      else map.set(key, [watch]);
    };
    for (const watch of byAge(watches.filter(isLive))) {
      this.rank.set(watch, this.rank.size);
      const filters = watch.filters;
      if (watch.type === 'company' && watch.domain !== null) add(this.byDomain, watch.domain, watch);
      else if (filters?.title_or?.length) {
        const firsts = new Set(
          filters.title_or.map((k) => titleWords(k)[0]).filter((w): w is string => w !== undefined),
        );
        for (const word of firsts) add(this.byTitleWord, word, watch);
      } else if (filters?.company_domain_or?.length)
        for (const domain of new Set(filters.company_domain_or)) add(this.byDomain, domain, watch);
      else if (filters?.country_code_or?.length)
        for (const country of new Set(filters.country_code_or)) add(this.byCountry, country, watch);
      else this.unindexed.push(watch);
    }
  }

  get size(): number {
    return this.rank.size;
  }

  /** Watches a change of a job (title, company domain, country) may concern, each once, oldest first. */
  forJob(title: string, domain: string | null, countryCode: string | null = null): WatchRecord[] {
    const found = new Set<WatchRecord>(this.unindexed);
    if (domain !== null) for (const watch of this.byDomain.get(domain) ?? []) found.add(watch);
    if (countryCode !== null) for (const watch of this.byCountry.get(countryCode) ?? []) found.add(watch);
    for (const word of new Set(titleWords(title))) {
      for (let end = 1; end <= word.length; end++)
        for (const watch of this.byTitleWord.get(word.slice(0, end)) ?? []) found.add(watch);
    }
    return this.oldestFirst(found);
  }

  /** Watches a change may concern through any of the job's views (after it, before it), each once, oldest first. */
  forJobs(jobs: readonly Pick<Job, 'title' | 'company' | 'location'>[]): WatchRecord[] {
    const found = new Set<WatchRecord>();
    for (const job of new Set(jobs))
      for (const watch of this.forJob(job.title, job.company.domain, job.location.country_code)) found.add(watch);
    return this.oldestFirst(found);
  }

  /** Company watches of a domain (hiring changes concern only them). */
  forCompany(domain: string): WatchRecord[] {
    return this.oldestFirst((this.byDomain.get(domain) ?? []).filter((w) => w.type === 'company'));
  }

  private oldestFirst(watches: Iterable<WatchRecord>): WatchRecord[] {
    return [...watches].sort((a, b) => this.rank.get(a)! - this.rank.get(b)!);
  }
}

function byAge(watches: WatchRecord[]): WatchRecord[] {
  return watches.sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/**
 * The matcher's view of the live watches: held in memory and reloaded (one query) only when the
 * watches' version in Redis moved, so a change is matched without a database read. A watch is
 * written (created, paused, resumed, deleted), then the version moved, before the change is
 * answered: a change the matcher takes after the answer is matched against an index that has it.
 * The version is read before the watches are, so an index is never labelled newer than it is.
 */
@Injectable()
export class WatchIndex {
  /** The index of the newest version asked for, loaded or still loading: changes handled side by side share it. */
  private latest: { version: string; candidates: Promise<WatchCandidates> } | null = null;

  constructor(
    private readonly store: WatchStore,
    private readonly redis: Redis,
  ) {}

  async current(): Promise<WatchCandidates> {
    const version = (await this.redis.get(WATCHES_VERSION_KEY)) ?? '0';
    let latest = this.latest;
    if (latest?.version !== version) {
      const loading = { version, candidates: this.store.allLive().then((watches) => new WatchCandidates(watches)) };
      // a load that failed is not kept: the next change loads again (its callers get the error)
      loading.candidates.catch(() => {
        if (this.latest === loading) this.latest = null;
      });
      this.latest = latest = loading;
    }
    return latest.candidates;
  }

  /**
   * After a watch was created, paused, resumed or deleted. Each move writes a value never used
   * before (not a counter): a Redis that lost the key and counted again from 0 could hand a
   * replica the very number it had loaded, and it would keep an index without the change.
   */
  async changed(): Promise<void> {
    await this.redis.set(WATCHES_VERSION_KEY, randomUUID());
  }
}
