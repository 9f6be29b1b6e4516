import { perProvider, PROVIDERS } from '@jobs/contracts';
import { ADDED_SLOT_BASE, Market, type OpeningBase } from './market.js';
import { decodeProviderJobId, encodeProviderJobId, PERIOD_MODULUS, unpackListingKey } from './provider-ids.js';
import {
  PROVIDER_SLUGS,
  type ClosedReason,
  type Company,
  type GroundTruthEntry,
  type Listing,
  type ProviderSlug,
  type SearchQuery,
  type WorldJob,
} from './types.js';
import { ControlledJobs, PIN_KEY, type AddedJob, type JobPatch, type NewJobInput } from './controlled-jobs.js';
import {
  addedEntry,
  byFreshness,
  mergeSorted,
  organicEntry,
  quantize,
  type Entry,
  type Snapshot,
} from './listing-entries.js';
import { compileQuery, snapshotMatches } from './title-index.js';
import { WorldCompanies } from './world-companies.js';
import { Messiness } from './messy.js';
import { BOARD_ATS_LIST, WorldBoards, type WorldBoard, type WorldBoardAts } from './world-boards.js';

/** How late each source shows organic changes: its listing lag in the provider registry. */
export const DEFAULT_LAG_MS: Readonly<Record<ProviderSlug, number>> = perProvider(
  (slug) => PROVIDERS[slug].listingLagMs,
);

/** How long the own crawler keeps listing a closed opening (with `includeClosed`). */
const CLOSED_LISTED_MS = 30 * 86_400_000;

export interface WorldOptions {
  /** `WORLD_SEED`; default 42. */
  seed?: number;
  /** Injectable clock in epoch milliseconds; default `Date.now`. */
  clock?: () => number;
  /** Number of companies; default 3,000. */
  companies?: number;
  /** Standing requisitions; about 83% of them are open at any time. Default 36,000 (≈30,000 openings). */
  slots?: number;
  lagMs?: Partial<Record<ProviderSlug, number>>;
  /**
   * Tells this process's control-created openings apart from an earlier process's (1..4095):
   * their provider ids include it, so a simulator restarted beside a kept database never hands
   * out an id that an earlier opening had. Default: from the clock at start (minutes).
   */
  addedEpoch?: number;
  /**
   * The market as real ones are (`messy.ts`): partners listing postings days late, bare openings,
   * fields a partner drops on a re-listing, tracking parameters on apply URLs, one requisition
   * posted in several cities. Default false: the tidy market the figures were first taken on.
   */
  messy?: boolean;
  /**
   * The world time of a time given in a request (a provider's `posted_after`, `listed_after`,
   * `changed_since`), when the world's clock runs apart from the caller's (a faster market clock).
   * Default: the same time.
   */
  timeOfRequest?: (t: number) => number;
  /**
   * How many companies publish an ATS board from the start: the first ones of the market (those
   * that hire most), Greenhouse, Lever and Ashby in turn, each board named after its company's
   * domain (`acme-com`). Default 0: the own crawler lists every opening in its feed.
   */
  boards?: number;
}

/** What one ATS board lists at one instant. */
export interface BoardListings {
  board: WorldBoard;
  listings: Listing[];
  /** The same for as long as the listings are (a cache key). */
  version: string;
}

export interface WorldStats {
  companies: number;
  slots: number;
  openOpenings: number;
  listingsByProvider: Record<ProviderSlug, number>;
  /** Index n: open openings listed by exactly n sources. */
  sourcesHistogram: number[];
}

/**
 * The simulated job market: the seeded market evolving with the clock, plus the control
 * API's mutations layered on top in memory, seen through each provider's lagged view.
 */
export class World {
  readonly seed: number;
  readonly market: Market;
  readonly lagMs: Readonly<Record<ProviderSlug, number>>;
  private readonly clock: () => number;
  private readonly mess: Messiness | null;
  private readonly timeOfRequest: (t: number) => number;
  private readonly companyList: WorldCompanies;
  /** The control API's openings and the organic ones it changed. */
  private readonly controlled: ControlledJobs;
  private readonly organicCache = new Map<ProviderSlug, Snapshot>();
  private readonly snapshotCache = new Map<ProviderSlug, Snapshot>();
  private readonly changesCache = new Map<ProviderSlug, Snapshot>();
  /** Companies that publish an ATS board: the own crawler reads their openings there, not in its feed. */
  private readonly boardList = new WorldBoards();
  private boardsCache: { key: string; at: number; byDomain: Map<string, Entry[]> } | null = null;

  constructor(options: WorldOptions = {}) {
    this.seed = (options.seed ?? 42) >>> 0;
    this.clock = options.clock ?? Date.now;
    const addedEpoch = options.addedEpoch ?? (Math.floor(this.clock() / 60_000) % 4095) + 1;
    if (!Number.isInteger(addedEpoch) || addedEpoch < 1 || addedEpoch > 4095)
      throw new Error('addedEpoch must be 1..4095');
    this.lagMs = { ...DEFAULT_LAG_MS, ...options.lagMs };
    this.mess = options.messy ? new Messiness(this.seed) : null;
    this.timeOfRequest = options.timeOfRequest ?? ((t) => t);
    this.market = new Market({
      seed: this.seed,
      companies: options.companies ?? 3000,
      slots: options.slots ?? 36_000,
      messy: options.messy ?? false,
    });
    this.companyList = new WorldCompanies(this.market);
    this.controlled = new ControlledJobs({
      market: this.market,
      companies: this.companyList,
      clock: this.clock,
      addedEpoch,
      truth: (id) => this.job(id),
      lagMs: this.lagMs,
    });
    this.market.companies.slice(0, options.boards ?? 0).forEach((company, i) => {
      const ats = BOARD_ATS_LIST[i % BOARD_ATS_LIST.length]!;
      this.boardList.set(ats, company.domain.replace(/\./g, '-'), company.domain);
    });
  }

  now(): number {
    return this.clock();
  }

  /** The instant a provider's listings reflect: now minus its lag, cut to the minute. */
  viewTime(slug: ProviderSlug, at = this.now()): number {
    return quantize(at - this.lagMs[slug]);
  }

  companies(): Company[] {
    return this.companyList.list();
  }

  company(domain: string): Company | undefined {
    return this.companyList.get(domain);
  }

  // ---------------------------------------------------------------- truth

  /** The truth about an opening at `at` (default now), or null if the id is unknown. */
  job(id: string, at = this.now()): WorldJob | null {
    const added = this.controlled.byId.get(id);
    if (added) return this.materializeAdded(added);
    const ref = this.market.parseWorldJobId(id);
    if (!ref || ref.slot >= this.market.slotCount) return null;
    const t = quantize(at);
    const k = this.market.periodIndex(ref.slot, t);
    if (k < ref.origin) return null;
    const base = this.market.base(ref.slot, ref.origin);
    if (this.market.originOf(ref.slot, k) === ref.origin) {
      const p = this.market.period(ref.slot, k);
      const job = this.materializeOrganic(base, k, t);
      if (t < p.openUntil) return job;
      return { ...job, status: 'closed', closedReason: this.market.closedReason(ref.slot, k), closedAt: p.openUntil };
    }
    const last = this.market.lastPeriodOf(ref.slot, ref.origin);
    const p = this.market.period(ref.slot, last);
    const job = this.materializeOrganic(base, last, p.openUntil);
    return { ...job, status: 'closed', closedReason: this.market.closedReason(ref.slot, last), closedAt: p.openUntil };
  }

  private materializeOrganic(base: OpeningBase, k: number, t: number): WorldJob {
    const company = this.market.companies[base.companyIndex]!;
    const fields = this.market.applyChanges(base, k, t, { ...base.fields, description: this.market.description(base) });
    return {
      ...fields,
      id: base.id,
      companyName: company.name,
      postedAt: this.market.period(base.slot, k).start,
      status: 'open',
      closedReason: null,
      closedAt: null,
      repostCount: k - base.origin,
      providers: PROVIDER_SLUGS.filter((_, i) => (base.providerMask & (1 << i)) !== 0),
      added: false,
    };
  }

  private materializeAdded(job: AddedJob): WorldJob {
    return {
      ...job.fields,
      location: { ...job.fields.location },
      salary: job.fields.salary ? { ...job.fields.salary } : null,
      id: job.id,
      companyName: this.company(job.fields.companyDomain)?.name ?? job.fields.companyDomain,
      postedAt: job.postedAt,
      status: job.status,
      closedReason: job.closedReason,
      closedAt: job.closedAt,
      repostCount: job.repostCount,
      providers: [...job.providers],
      added: job.created,
    };
  }

  // ---------------------------------------------------------------- provider views

  private organicSnapshot(slug: ProviderSlug, t: number): Snapshot {
    const key = `${t}:${this.controlled.pinned.size}:${this.boardList.version}`;
    const cached = this.organicCache.get(slug);
    if (cached && cached.key === key) return cached;
    const bit = 1 << PROVIDER_SLUGS.indexOf(slug);
    const entries: Entry[] = [];
    const market = this.market;
    const checkPins = this.controlled.pinned.size > 0;
    const lag = this.lagMs[slug];
    const onBoard = this.onBoard(slug);
    for (let slot = 0; slot < market.slotCount; slot++) {
      const origin = market.openOriginAt(slot, t);
      if (origin < 0) continue;
      const base = market.base(slot, origin);
      if ((base.providerMask & bit) === 0) continue;
      if (checkPins && this.controlled.pinned.has(PIN_KEY(slot, origin))) continue;
      if (onBoard && onBoard(base.fields.companyDomain)) continue;
      const period = market.memoPeriodOf(slot);
      const start = market.memoStartOf(slot);
      // a partner that lists the posting days after the employer posted it shows nothing before
      const delay = this.mess?.listingDelay(slug, slot, period) ?? 0;
      if (start + delay > t) continue;
      entries.push(organicEntry(base, period, start, start + delay + lag));
    }
    entries.sort(byFreshness);
    const snapshot = { at: t, key, entries };
    this.organicCache.set(slug, snapshot);
    return snapshot;
  }

  private snapshot(slug: ProviderSlug, at: number): Snapshot {
    const t = this.viewTime(slug, at);
    const key = `${t}:${this.controlled.pinned.size}:${this.controlled.version}:${this.boardList.version}`;
    const cached = this.snapshotCache.get(slug);
    if (cached && cached.key === key) return cached;
    const organic = this.organicSnapshot(slug, t).entries;
    const extra: Entry[] = [];
    const onBoard = this.onBoard(slug);
    for (const job of this.controlled.byId.values()) {
      if (job.status !== 'open' || !job.providers.includes(slug)) continue;
      if (onBoard && onBoard(job.fields.companyDomain)) continue;
      extra.push(addedEntry(job));
    }
    extra.sort(byFreshness);
    const snapshot = { at: t, key, entries: extra.length ? mergeSorted(organic, extra) : organic };
    this.snapshotCache.set(slug, snapshot);
    return snapshot;
  }

  private toListing(slug: ProviderSlug, entry: Entry, t: number): Listing {
    let job: WorldJob;
    if (entry.added) job = this.materializeAdded(entry.added);
    else if (entry.closedAt !== undefined) {
      const open = this.materializeOrganic(this.market.base(entry.slot, entry.origin), entry.period, entry.closedAt);
      job = {
        ...open,
        status: 'closed',
        closedReason: this.market.closedReason(entry.slot, entry.period),
        closedAt: entry.closedAt,
      };
    } else job = this.materializeOrganic(this.market.base(entry.slot, entry.origin), entry.period, t);
    if (this.mess && !entry.added) job = this.mess.asListed(slug, entry, job);
    return { provider: slug, providerJobId: encodeProviderJobId(this.seed, slug, entry.packed), job };
  }

  /** Number of openings a provider lists now. */
  listingCount(slug: ProviderSlug, at = this.now()): number {
    return this.snapshot(slug, at).entries.length;
  }

  /** A provider's matching listings, freshest first, then by id: a stable, deterministic order. */
  search(
    slug: ProviderSlug,
    query: SearchQuery,
    offset: number,
    limit: number,
    at = this.now(),
  ): { total: number; listings: Listing[] } {
    const snapshot = this.snapshot(slug, at);
    query = this.inWorldTime(query);
    // only the own crawler checks employers' pages, so only it knows closed openings and keeps a change feed
    const entries =
      slug !== 'own_index'
        ? snapshot.entries
        : query.changedSince !== undefined
          ? this.changes(slug, query.changedSince, at)
          : query.includeClosed
            ? [...snapshot.entries, ...this.recentlyClosed(slug, at)]
            : snapshot.entries;
    const matching =
      entries === snapshot.entries ? snapshotMatches(snapshot, query) : entries.filter(compileQuery(query));
    return {
      total: matching.length,
      listings: matching.slice(offset, offset + limit).map((e) => this.toListing(slug, e, snapshot.at)),
    };
  }

  /** A query's times in world time (the caller's clock may run apart from the world's). */
  private inWorldTime(query: SearchQuery): SearchQuery {
    const at = (t: number | undefined) => (t === undefined ? undefined : this.timeOfRequest(t));
    if (query.postedSince === undefined && query.listedSince === undefined && query.changedSince === undefined)
      return query;
    return {
      ...query,
      postedSince: at(query.postedSince),
      listedSince: at(query.listedSince),
      changedSince: at(query.changedSince),
    };
  }

  /**
   * The own crawler's change feed at its view time: the openings it lists that opened (or were
   * re-listed) or changed at or after `since`, and those it listed that closed since then, as
   * closed with their reason; control calls count from the moment they were made. Freshest first.
   */
  private changes(slug: ProviderSlug, since: number, at: number): Entry[] {
    const t = this.viewTime(slug, at);
    const from = quantize(since);
    const key = `${t}:${from}:${this.controlled.pinned.size}:${this.controlled.version}:${this.boardList.version}`;
    const cached = this.changesCache.get(slug);
    if (cached && cached.key === key) return cached.entries;
    const bit = 1 << PROVIDER_SLUGS.indexOf(slug);
    const market = this.market;
    const out: Entry[] = [];
    const onBoard = this.onBoard(slug);
    const organic = (slot: number, k: number, closedAt?: number): void => {
      const origin = market.originOf(slot, k);
      if (this.controlled.pinned.has(PIN_KEY(slot, origin))) return;
      const base = market.base(slot, origin);
      if ((base.providerMask & bit) === 0) return;
      if (onBoard && onBoard(base.fields.companyDomain)) return;
      const start = market.period(slot, k).start;
      const entry = organicEntry(base, k, start, start + this.lagMs[slug]);
      out.push(closedAt === undefined ? entry : { ...entry, closedAt });
    };
    for (let slot = 0; slot < market.slotCount; slot++) {
      const k = market.periodIndex(slot, t);
      const p = market.period(slot, k);
      if (t < p.openUntil) {
        if (p.start >= from || market.changePoints(slot, p).some((c) => c >= from && c <= t)) organic(slot, k);
      } else if (p.openUntil >= from) organic(slot, k, p.openUntil);
      // a window longer than a closed phase: the last period's closure is in it too
      if (p.start >= from) {
        const last = market.period(slot, k - 1);
        if (last.openUntil >= from) organic(slot, k - 1, last.openUntil);
      }
    }
    for (const job of this.controlled.byId.values()) {
      if (job.changedAt < from || !job.providers.includes(slug)) continue;
      if (onBoard && onBoard(job.fields.companyDomain)) continue;
      if (job.status === 'closed' && (job.closedAt === null || at - job.closedAt > CLOSED_LISTED_MS)) continue;
      out.push(addedEntry(job));
    }
    out.sort(byFreshness);
    this.changesCache.set(slug, { at: t, key, entries: out });
    return out;
  }

  /** Control-closed openings a provider listed, closed within the last 30 days, freshest first. */
  private recentlyClosed(slug: ProviderSlug, at: number): Entry[] {
    const out: Entry[] = [];
    const onBoard = this.onBoard(slug);
    for (const job of this.controlled.byId.values()) {
      if (
        (onBoard && onBoard(job.fields.companyDomain)) ||
        job.status !== 'closed' ||
        job.closedAt === null ||
        at - job.closedAt > CLOSED_LISTED_MS ||
        !job.providers.includes(slug)
      )
        continue;
      out.push(addedEntry(job));
    }
    return out.sort(byFreshness);
  }

  /** One listing by the provider's own id, if the provider lists it now. */
  listing(slug: ProviderSlug, providerJobId: string, at = this.now()): Listing | null {
    const packed = decodeProviderJobId(this.seed, slug, providerJobId);
    if (packed === null) return null;
    const snapshot = this.snapshot(slug, at);
    snapshot.byPacked ??= new Map(snapshot.entries.map((e) => [e.packed, e]));
    const entry = snapshot.byPacked.get(packed);
    return entry ? this.toListing(slug, entry, snapshot.at) : null;
  }

  // ---------------------------------------------------------------- ATS boards

  /** For the own crawler's feed, whether a company's openings are on its board instead (null: none to check). */
  private onBoard(slug: ProviderSlug): ((domain: string) => boolean) | null {
    if (slug !== 'own_index' || this.boardList.size === 0) return null;
    return (domain) => this.boardList.ofCompany(domain) !== undefined;
  }

  boards(): WorldBoard[] {
    return this.boardList.list();
  }

  board(ats: WorldBoardAts, board: string): WorldBoard | undefined {
    return this.boardList.get(ats, board);
  }

  /**
   * The company publishes its openings on this ATS board from now on: every organic opening it
   * has open, and those the control API created or changed that name `own_index`. The own
   * crawler's feed no longer lists them (the own crawler reads them from the board).
   */
  setBoard(input: { ats: WorldBoardAts; board: string; companyDomain: string }): WorldBoard {
    return this.boardList.set(input.ats, input.board, this.companyList.ensure(input.companyDomain));
  }

  removeBoard(ats: WorldBoardAts, board: string): boolean {
    return this.boardList.remove(ats, board);
  }

  /**
   * What a board lists now, freshest first, or null when no company publishes it. Ids are the
   * own crawler's (a re-listing has a new one). A board is the employer's own page: no lag.
   */
  boardListings(ats: WorldBoardAts, name: string, at = this.now()): BoardListings | null {
    const board = this.boardList.get(ats, name);
    if (!board) return null;
    const t = quantize(at);
    const organic = this.boardEntries(t).get(board.companyDomain) ?? [];
    const extra: Entry[] = [];
    for (const job of this.controlled.byId.values()) {
      if (job.status !== 'open' || job.fields.companyDomain !== board.companyDomain) continue;
      if (job.created ? job.providers.includes('own_index') : true) extra.push(addedEntry(job));
    }
    extra.sort(byFreshness);
    const entries = extra.length ? mergeSorted(organic, extra) : organic;
    return {
      board: { ...board },
      listings: entries.map((e) => this.toListing('own_index', e, t)),
      version: `${t}:${this.controlled.pinned.size}:${this.controlled.version}:${this.boardList.version}`,
    };
  }

  /** The organic openings open at `t` of every company with a board, by domain (one pass over the market). */
  private boardEntries(t: number): Map<string, Entry[]> {
    const key = `${t}:${this.controlled.pinned.size}:${this.boardList.version}`;
    if (this.boardsCache?.key === key) return this.boardsCache.byDomain;
    const byDomain = new Map<string, Entry[]>();
    const market = this.market;
    if (this.boardList.size > 0)
      for (let slot = 0; slot < market.slotCount; slot++) {
        const origin = market.openOriginAt(slot, t);
        if (origin < 0) continue;
        const base = market.base(slot, origin);
        const domain = base.fields.companyDomain;
        if (!this.boardList.ofCompany(domain)) continue;
        if (this.controlled.pinned.has(PIN_KEY(slot, origin))) continue;
        const start = market.memoStartOf(slot);
        const list = byDomain.get(domain) ?? [];
        list.push(organicEntry(base, market.memoPeriodOf(slot), start, start));
        byDomain.set(domain, list);
      }
    for (const list of byDomain.values()) list.sort(byFreshness);
    this.boardsCache = { key, at: t, byDomain };
    return byDomain;
  }

  // ---------------------------------------------------------------- ground truth (evaluation only)

  /** The world opening behind a provider's job id (current or past listing), or null. */
  groundTruth(slug: ProviderSlug, providerJobId: string, at = this.now()): string | null {
    const packed = decodeProviderJobId(this.seed, slug, providerJobId);
    if (packed === null) return null;
    const { slot, periodLow, adminReposts } = unpackListingKey(packed);
    if (slot >= ADDED_SLOT_BASE) {
      const job = this.controlled.bySlot.get(slot);
      return job && job.created && job.period % PERIOD_MODULUS === periodLow ? job.id : null;
    }
    for (const job of this.controlled.pinned.values()) {
      if (job.slot === slot && job.period % PERIOD_MODULUS === periodLow && job.adminReposts % 16 === adminReposts)
        return job.id;
    }
    if (slot >= this.market.slotCount || adminReposts !== 0) return null;
    const current = this.market.periodIndex(slot, quantize(at));
    const k = current - ((((current - periodLow) % PERIOD_MODULUS) + PERIOD_MODULUS) % PERIOD_MODULUS);
    const origin = this.market.originOf(slot, k);
    return this.market.worldJobId(slot, origin);
  }

  /** Every current listing of every provider with its world opening. */
  groundTruthEntries(at = this.now(), providers: readonly ProviderSlug[] = PROVIDER_SLUGS): GroundTruthEntry[] {
    const out: GroundTruthEntry[] = [];
    for (const slug of providers) {
      for (const e of this.snapshot(slug, at).entries) {
        out.push({
          provider: slug,
          providerJobId: encodeProviderJobId(this.seed, slug, e.packed),
          worldJobId: e.added ? e.added.id : this.market.worldJobId(e.slot, e.origin),
        });
      }
    }
    return out;
  }

  /** Generates every current opening and every provider's listing now (start-up warm-up). */
  warm(at = this.now()): void {
    for (const slug of PROVIDER_SLUGS) this.snapshot(slug, at);
  }

  stats(at = this.now()): WorldStats {
    const t = quantize(at);
    const histogram = new Array<number>(PROVIDER_SLUGS.length + 1).fill(0);
    let open = 0;
    for (let slot = 0; slot < this.market.slotCount; slot++) {
      const origin = this.market.openOriginAt(slot, t);
      if (origin < 0) continue;
      open++;
      const mask = this.market.base(slot, origin).providerMask;
      let n = 0;
      for (let m = mask; m; m &= m - 1) n++;
      histogram[n]!++;
    }
    const listingsByProvider = perProvider((s) => this.listingCount(s, at + this.lagMs[s]));
    return {
      companies: this.companyList.size,
      slots: this.market.slotCount,
      openOpenings: open,
      listingsByProvider,
      sourcesHistogram: histogram,
    };
  }

  // ---------------------------------------------------------------- mutations (control API)

  addCompany(input: { domain: string; name: string }): Company {
    return this.companyList.add(input);
  }

  addJob(input: NewJobInput): WorldJob {
    return this.materializeAdded(this.controlled.add(input));
  }

  patchJob(id: string, patch: JobPatch): WorldJob {
    return this.materializeAdded(this.controlled.patch(id, patch));
  }

  closeJob(id: string, reason: ClosedReason): WorldJob {
    return this.materializeAdded(this.controlled.close(id, reason));
  }

  /** Lists the opening again under new provider ids, as a re-listing (also when it is open). */
  repostJob(id: string): WorldJob {
    return this.materializeAdded(this.controlled.repost(id));
  }
}
