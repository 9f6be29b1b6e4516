import { Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { Job } from '@jobs/contracts';
import { titleWords } from '@jobs/job-filters';
import { execTransaction } from '@jobs/redis';
import { isLive, type WatchRecord } from './watch.js';
import { WatchStore } from './watch.store.js';

/**
 * Moved by every change of a watch (create, pause, resume, delete) to `e:<its entry id>`, the entry
 * naming the watch appended to `WATCH_CHANGES_KEY` with the version it replaced (one script):
 * a matcher replica applies the changed watches it has not seen when their entries chain from the
 * version it holds to the current one, and reloads every watch when they do not (a replica of an
 * earlier version moved the version without an entry, entries were trimmed, Redis lost them).
 */
export const WATCHES_VERSION_KEY = 'orchestrator:watches:version';
/** The watches changed, in order: one stream entry (`watch`: its id, `prev`: the version before) per change. */
export const WATCH_CHANGES_KEY = 'orchestrator:watches:changes';
/** Entries the stream keeps at least: a replica that missed more reloads every watch. */
const CHANGES_KEPT = 10_000;
/** Changed watches a replica applies one by one at most; past that it reloads them all. */
const CHANGES_APPLIED_MAX = 1_000;
/**
 * How long an index built from change entries serves before every watch is read again: a Redis that
 * fails over to a copy without the last acknowledged entries hands out a chain that looks whole.
 */
export const WATCHES_RELOAD_EVERY_MS = 10 * 60_000;

/** KEYS: changes, version; ARGV: entries kept, watch id. Returns the new version. */
const RECORD_CHANGE = `
local prev = redis.call('GET', KEYS[2]) or '0'
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'watch', ARGV[2], 'prev', prev)
local version = 'e:' .. id
redis.call('SET', KEYS[2], version)
return version`;

/**
 * The live watches, indexed for the matcher (pure): by company domain (company watches, and
 * search watches limited to companies), by the first word of each title keyword (search watches
 * with `title_or`: a keyword matches when each of its words starts a title word, so the job's
 * title words and their prefixes find every candidate), by country (search watches limited to
 * countries: a job of unknown country matches none of them), and the rest, which any change may
 * concern. Candidates are then checked with the watch rules (`watch-events.ts`), so the index
 * only has to never miss one. A watch is put (added or replaced) or removed by id, so a change of
 * one watch costs its own keys, not a rebuild.
 */
export class WatchCandidates {
  private readonly byDomain = new Map<string, Map<string, WatchRecord>>();
  private readonly byTitleWord = new Map<string, Map<string, WatchRecord>>();
  private readonly byCountry = new Map<string, Map<string, WatchRecord>>();
  private readonly unindexed = new Map<string, WatchRecord>();
  private readonly live = new Map<string, WatchRecord>();

  constructor(watches: readonly WatchRecord[] = []) {
    for (const watch of watches) this.put(watch);
  }

  get size(): number {
    return this.live.size;
  }

  /** Adds the watch, or replaces the one of its id; one no longer live is removed. */
  put(watch: WatchRecord): void {
    this.remove(watch.id);
    if (!isLive(watch)) return;
    this.live.set(watch.id, watch);
    for (const [map, key] of this.placesOf(watch)) {
      if (!map) this.unindexed.set(watch.id, watch);
      else {
        const watches = map.get(key);
        if (watches) watches.set(watch.id, watch);
        else map.set(key, new Map([[watch.id, watch]]));
      }
    }
  }

  remove(id: string): void {
    const watch = this.live.get(id);
    if (!watch) return;
    this.live.delete(id);
    for (const [map, key] of this.placesOf(watch)) {
      if (!map) this.unindexed.delete(id);
      else {
        const watches = map.get(key);
        watches?.delete(id);
        if (watches?.size === 0) map.delete(key);
      }
    }
  }

  /** Watches a change of a job (title, company domain, country) may concern, each once, oldest first. */
  forJob(title: string, domain: string | null, countryCode: string | null = null): WatchRecord[] {
    const found = new Set<WatchRecord>(this.unindexed.values());
    const add = (watches: Map<string, WatchRecord> | undefined) => {
      if (watches) for (const watch of watches.values()) found.add(watch);
    };
    if (domain !== null) add(this.byDomain.get(domain));
    if (countryCode !== null) add(this.byCountry.get(countryCode));
    for (const word of new Set(titleWords(title))) {
      for (let end = 1; end <= word.length; end++) add(this.byTitleWord.get(word.slice(0, end)));
    }
    return oldestFirst(found);
  }

  /** Watches a change may concern through any of the job's views (after it, before it), each once, oldest first. */
  forJobs(jobs: readonly Pick<Job, 'title' | 'company' | 'location'>[]): WatchRecord[] {
    const found = new Set<WatchRecord>();
    for (const job of new Set(jobs))
      for (const watch of this.forJob(job.title, job.company.domain, job.location.country_code)) found.add(watch);
    return oldestFirst(found);
  }

  /** Company watches of a domain (hiring changes concern only them). */
  forCompany(domain: string): WatchRecord[] {
    return oldestFirst([...(this.byDomain.get(domain)?.values() ?? [])].filter((w) => w.type === 'company'));
  }

  /** Where the watch is indexed: a map and its key each, or `[null, '']` for the unindexed. */
  private placesOf(watch: WatchRecord): [Map<string, Map<string, WatchRecord>> | null, string][] {
    const filters = watch.filters;
    if (watch.type === 'company' && watch.domain !== null) return [[this.byDomain, watch.domain]];
    if (filters?.title_or?.length) {
      const firsts = new Set(filters.title_or.map((k) => titleWords(k)[0]).filter((w): w is string => w !== undefined));
      return [...firsts].map((word) => [this.byTitleWord, word]);
    }
    if (filters?.company_domain_or?.length)
      return [...new Set(filters.company_domain_or)].map((domain) => [this.byDomain, domain]);
    if (filters?.country_code_or?.length)
      return [...new Set(filters.country_code_or)].map((country) => [this.byCountry, country]);
    return [[null, '']];
  }
}

/** By creation, then id: the order events of one change go out in. */
function oldestFirst(watches: Iterable<WatchRecord>): WatchRecord[] {
  return [...watches].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** The index as of one moment of the watches' changes: the version, the last change entry applied. */
interface Synced {
  version: string;
  lastEntry: string;
  candidates: WatchCandidates;
  /** when every watch was last read (epoch ms) */
  loadedAt: number;
}

/**
 * The matcher's view of the live watches, held in memory. Before each change it is matched, the
 * replica reads the watches' version and the change entries after the last it applied (one Redis
 * transaction): the same version, nothing to do; new entries, the watches they name are read by id
 * and put or removed; a version moved without entries, or more entries than `CHANGES_APPLIED_MAX`,
 * every live watch is read again, as it is every `WATCHES_RELOAD_EVERY_MS` whatever the chain says.
 * A watch is written (created, paused, resumed, deleted), then the
 * version and its entry, before the change is answered: a change the matcher takes after the
 * answer is matched against an index that has it. Reads of the watches follow the Redis read they
 * answer, so an index is never labelled newer than it is; one sync runs at a time, and callers that
 * arrive meanwhile share the next, which reads Redis after they asked.
 */
@Injectable()
export class WatchIndex {
  private synced: Synced | null = null;
  private running: Promise<WatchCandidates> | null = null;
  private next: Promise<WatchCandidates> | null = null;

  /** The clock the periodic full read goes by (a test moves it). */
  now: () => number = Date.now;

  constructor(
    private readonly store: WatchStore,
    private readonly redis: Redis,
  ) {}

  /** The live watches, as of a read of their version made after this call. */
  current(): Promise<WatchCandidates> {
    if (!this.running) {
      const run = this.sync().finally(() => {
        if (this.running === run) this.running = null;
      });
      this.running = run;
      return run;
    }
    // a sync under way read Redis before this call: the one after it serves every caller meanwhile
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.current();
      });
    return this.next;
  }

  /** After a watch was created, paused, resumed or deleted: its entry, and the version it makes. */
  async changed(watchId: string): Promise<void> {
    await this.redis.eval(RECORD_CHANGE, 2, WATCH_CHANGES_KEY, WATCHES_VERSION_KEY, CHANGES_KEPT, watchId);
  }

  private async sync(): Promise<WatchCandidates> {
    const synced = this.synced;
    if (!synced || this.now() - synced.loadedAt >= WATCHES_RELOAD_EVERY_MS) return this.reload();
    const [version, entries] = (await execTransaction(
      this.redis
        .multi()
        .get(WATCHES_VERSION_KEY)
        .xrange(WATCH_CHANGES_KEY, `(${synced.lastEntry}`, '+', 'COUNT', CHANGES_APPLIED_MAX + 1),
      "the watches' changes read",
    )) as [string | null, [string, string[]][]];
    const now = version ?? '0';
    if (now === synced.version) return synced.candidates;
    const changes = entries.map(([id, fields]) => ({ id, ...fieldsOf(fields) }));
    // each entry replaced the version the one before made, from the version held to the current one
    const chained =
      changes.length > 0 &&
      changes.length <= CHANGES_APPLIED_MAX &&
      changes.every((c, i) => c.watch !== null && c.prev === (i === 0 ? synced.version : `e:${changes[i - 1]!.id}`)) &&
      now === `e:${changes.at(-1)!.id}`;
    if (!chained) return this.reload();
    const ids = [...new Set(changes.map((c) => c.watch!))];
    const found = new Map((await this.store.byIds(ids)).map((w) => [w.id, w]));
    for (const id of ids) {
      const watch = found.get(id);
      if (watch) synced.candidates.put(watch);
      else synced.candidates.remove(id);
    }
    this.synced = { ...synced, version: now, lastEntry: changes.at(-1)!.id };
    return synced.candidates;
  }

  /** Every live watch, read after the version and the last entry it stands for. */
  private async reload(): Promise<WatchCandidates> {
    const [version, last] = (await execTransaction(
      this.redis.multi().get(WATCHES_VERSION_KEY).xrevrange(WATCH_CHANGES_KEY, '+', '-', 'COUNT', 1),
      "the watches' version read",
    )) as [string | null, [string, string[]][]];
    const loadedAt = this.now();
    const candidates = new WatchCandidates(await this.store.allLive());
    this.synced = { version: version ?? '0', lastEntry: last[0]?.[0] ?? '0-0', candidates, loadedAt };
    return candidates;
  }
}

/** A change entry's fields (`watch`, id, `prev`, version). */
function fieldsOf(fields: string[]): { watch: string | null; prev: string | null } {
  const value = (name: string) => {
    for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1]!;
    return null;
  };
  return { watch: value('watch'), prev: value('prev') };
}
