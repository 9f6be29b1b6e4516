import { ADDED_SLOT_BASE, MAX_SLOTS, Market, TIME_BUCKET_MS, normalizeText, type OpeningBase } from './market.js';
import { decodeProviderJobId, encodeProviderJobId, packListingKey, PERIOD_MODULUS, unpackListingKey } from './provider-ids.js';
import {
  PROVIDER_SLUGS,
  type ClosedReason,
  type Company,
  type EmploymentType,
  type GroundTruthEntry,
  type JobFields,
  type Listing,
  type Location,
  type ProviderSlug,
  type Salary,
  type SearchQuery,
  type Seniority,
  type WorldJob,
} from './types.js';

/** How late each source shows organic changes (its refresh lag). */
export const DEFAULT_LAG_MS: Readonly<Record<ProviderSlug, number>> = {
  own_index: 2 * 60_000,
  provider_a: 5 * 60_000,
  provider_b: 15 * 60_000,
  provider_c: 1 * 60_000,
  provider_d: 30 * 60_000,
  provider_e: 60 * 60_000,
  provider_f: 10 * 60_000,
};

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
}

export interface NewJobInput {
  companyDomain: string;
  title: string;
  providers: ProviderSlug[];
  location?: Partial<Location> | null;
  employmentType?: EmploymentType | null;
  seniority?: Seniority | null;
  jobFamily?: string | null;
  salary?: Salary | null;
  description?: string | null;
  applyUrl?: string | null;
  /** Epoch milliseconds; default now. */
  postedAt?: number;
}

export type JobPatch = Partial<NewJobInput>;

export class WorldError extends Error {
  constructor(
    readonly code: 'not_found' | 'invalid_request' | 'capacity',
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = 'WorldError';
  }
}

/** An opening created through the control API, or an organic one "pinned" by a mutation. */
interface AddedJob {
  id: string;
  slot: number;
  /** Period used in provider ids (0 for created openings). */
  period: number;
  fields: JobFields;
  titleNorm: string;
  providers: ProviderSlug[];
  status: 'open' | 'closed';
  closedReason: ClosedReason | null;
  closedAt: number | null;
  postedAt: number;
  repostCount: number;
  adminReposts: number;
  created: boolean;
  /** When a control call last changed it (epoch ms): the own crawler's change feed reports it from then. */
  changedAt: number;
}

interface Entry {
  packed: number;
  postedAt: number;
  titleNorm: string;
  countryCode: string | null;
  remote: boolean | null;
  domain: string;
  slot: number;
  period: number;
  origin: number;
  added: AddedJob | null;
  /** An organic opening listed as closed (the own crawler's change feed): when its period closed. */
  closedAt?: number;
}

interface Snapshot {
  at: number;
  key: string;
  entries: Entry[];
  byPacked?: Map<number, Entry>;
  /** Built on the first keyword search of the snapshot: see `TitleIndex`. */
  titles?: TitleIndex;
}

export interface WorldStats {
  companies: number;
  slots: number;
  openOpenings: number;
  listingsByProvider: Record<ProviderSlug, number>;
  /** Index n: open openings listed by exactly n sources. */
  sourcesHistogram: number[];
}

const PIN_KEY = (slot: number, origin: number): number => slot * 65_536 + origin;

/**
 * The simulated job market: the seeded market evolving with the clock, plus the control
 * API's mutations layered on top in memory, seen through each provider's lagged view.
 */
export class World {
  readonly seed: number;
  readonly market: Market;
  readonly lagMs: Readonly<Record<ProviderSlug, number>>;
  private readonly clock: () => number;
  private readonly addedCompanies = new Map<string, Company>();
  private readonly companyByDomain: Map<string, Company>;
  private readonly added = new Map<string, AddedJob>();
  private readonly addedBySlot = new Map<number, AddedJob>();
  private readonly pinned = new Map<number, AddedJob>();
  private nextSlot = ADDED_SLOT_BASE;
  private readonly addedEpoch: number;
  private addedVersion = 0;
  private readonly organicCache = new Map<ProviderSlug, Snapshot>();
  private readonly snapshotCache = new Map<ProviderSlug, Snapshot>();
  private readonly changesCache = new Map<ProviderSlug, Snapshot>();

  constructor(options: WorldOptions = {}) {
    this.seed = (options.seed ?? 42) >>> 0;
    this.clock = options.clock ?? Date.now;
    this.addedEpoch = options.addedEpoch ?? (Math.floor(this.clock() / 60_000) % 4095) + 1;
    if (!Number.isInteger(this.addedEpoch) || this.addedEpoch < 1 || this.addedEpoch > 4095) throw new Error('addedEpoch must be 1..4095');
    this.lagMs = { ...DEFAULT_LAG_MS, ...options.lagMs };
    this.market = new Market({ seed: this.seed, companies: options.companies ?? 3000, slots: options.slots ?? 36_000 });
    this.companyByDomain = new Map(this.market.companies.map((c) => [c.domain, c]));
  }

  now(): number {
    return this.clock();
  }

  /** The instant a provider's listings reflect: now minus its lag, cut to the minute. */
  viewTime(slug: ProviderSlug, at = this.now()): number {
    return quantize(at - this.lagMs[slug]);
  }

  companies(): Company[] {
    return [...this.market.companies, ...this.addedCompanies.values()];
  }

  company(domain: string): Company | undefined {
    return this.companyByDomain.get(normalizeDomain(domain));
  }

  // ---------------------------------------------------------------- truth

  /** The truth about an opening at `at` (default now), or null if the id is unknown. */
  job(id: string, at = this.now()): WorldJob | null {
    const added = this.added.get(id);
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
    const key = `${t}:${this.pinned.size}`;
    const cached = this.organicCache.get(slug);
    if (cached && cached.key === key) return cached;
    const bit = 1 << PROVIDER_SLUGS.indexOf(slug);
    const entries: Entry[] = [];
    const market = this.market;
    const checkPins = this.pinned.size > 0;
    for (let slot = 0; slot < market.slotCount; slot++) {
      const origin = market.openOriginAt(slot, t);
      if (origin < 0) continue;
      const base = market.base(slot, origin);
      if ((base.providerMask & bit) === 0) continue;
      if (checkPins && this.pinned.has(PIN_KEY(slot, origin))) continue;
      const period = market.memoPeriodOf(slot);
      entries.push(organicEntry(base, period, market.memoStartOf(slot)));
    }
    entries.sort(byFreshness);
    const snapshot = { at: t, key, entries };
    this.organicCache.set(slug, snapshot);
    return snapshot;
  }

  private snapshot(slug: ProviderSlug, at: number): Snapshot {
    const t = this.viewTime(slug, at);
    const key = `${t}:${this.pinned.size}:${this.addedVersion}`;
    const cached = this.snapshotCache.get(slug);
    if (cached && cached.key === key) return cached;
    const organic = this.organicSnapshot(slug, t).entries;
    const extra: Entry[] = [];
    for (const job of this.added.values()) {
      if (job.status !== 'open' || !job.providers.includes(slug)) continue;
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
      job = { ...open, status: 'closed', closedReason: this.market.closedReason(entry.slot, entry.period), closedAt: entry.closedAt };
    } else job = this.materializeOrganic(this.market.base(entry.slot, entry.origin), entry.period, t);
    return { provider: slug, providerJobId: encodeProviderJobId(this.seed, slug, entry.packed), job };
  }

  /** Number of openings a provider lists now. */
  listingCount(slug: ProviderSlug, at = this.now()): number {
    return this.snapshot(slug, at).entries.length;
  }

  /** A provider's matching listings, freshest first, then by id: a stable, deterministic order. */
  search(slug: ProviderSlug, query: SearchQuery, offset: number, limit: number, at = this.now()): { total: number; listings: Listing[] } {
    const snapshot = this.snapshot(slug, at);
    const match = compileQuery(query);
    let total = 0;
    const page: Entry[] = [];
    // only the own crawler checks employers' pages, so only it knows closed openings and keeps a change feed
    const entries =
      slug !== 'own_index'
        ? snapshot.entries
        : query.changedSince !== undefined
          ? this.changes(slug, query.changedSince, at)
          : query.includeClosed
            ? [...snapshot.entries, ...this.recentlyClosed(slug, at)]
            : snapshot.entries;
    // a keyword search looks only at the entries whose title has its words (the same answer,
    // without testing every listing's title: a partner search scans 10-17k of them)
    const candidates = entries === snapshot.entries && query.titleAny?.length ? (snapshot.titles ??= new TitleIndex(entries)).candidates(query.titleAny) : undefined;
    for (let i = 0; i < entries.length; i++) {
      if (candidates && candidates[i] === 0) continue;
      const entry = entries[i]!;
      if (!match(entry)) continue;
      if (total >= offset && page.length < limit) page.push(entry);
      total++;
    }
    return { total, listings: page.map((e) => this.toListing(slug, e, snapshot.at)) };
  }

  /**
   * The own crawler's change feed at its view time: the openings it lists that opened (or were
   * re-listed) or changed at or after `since`, and those it listed that closed since then, as
   * closed with their reason; control calls count from the moment they were made. Freshest first.
   */
  private changes(slug: ProviderSlug, since: number, at: number): Entry[] {
    const t = this.viewTime(slug, at);
    const from = quantize(since);
    const key = `${t}:${from}:${this.pinned.size}:${this.addedVersion}`;
    const cached = this.changesCache.get(slug);
    if (cached && cached.key === key) return cached.entries;
    const bit = 1 << PROVIDER_SLUGS.indexOf(slug);
    const market = this.market;
    const out: Entry[] = [];
    const organic = (slot: number, k: number, closedAt?: number): void => {
      const origin = market.originOf(slot, k);
      if (this.pinned.has(PIN_KEY(slot, origin))) return;
      const base = market.base(slot, origin);
      if ((base.providerMask & bit) === 0) return;
      const entry = organicEntry(base, k, market.period(slot, k).start);
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
    for (const job of this.added.values()) {
      if (job.changedAt < from || !job.providers.includes(slug)) continue;
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
    for (const job of this.added.values()) {
      if (job.status !== 'closed' || job.closedAt === null || at - job.closedAt > CLOSED_LISTED_MS || !job.providers.includes(slug)) continue;
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

  // ---------------------------------------------------------------- ground truth (evaluation only)

  /** The world opening behind a provider's job id (current or past listing), or null. */
  groundTruth(slug: ProviderSlug, providerJobId: string, at = this.now()): string | null {
    const packed = decodeProviderJobId(this.seed, slug, providerJobId);
    if (packed === null) return null;
    const { slot, periodLow, adminReposts } = unpackListingKey(packed);
    if (slot >= ADDED_SLOT_BASE) {
      const job = this.addedBySlot.get(slot);
      return job && job.created && job.period % PERIOD_MODULUS === periodLow ? job.id : null;
    }
    for (const job of this.pinned.values()) {
      if (job.slot === slot && job.period % PERIOD_MODULUS === periodLow && job.adminReposts % 16 === adminReposts) return job.id;
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
    const listingsByProvider = Object.fromEntries(PROVIDER_SLUGS.map((s) => [s, this.listingCount(s, at + this.lagMs[s])])) as Record<ProviderSlug, number>;
    return { companies: this.companyByDomain.size, slots: this.market.slotCount, openOpenings: open, listingsByProvider, sourcesHistogram: histogram };
  }

  // ---------------------------------------------------------------- mutations (control API)

  addCompany(input: { domain: string; name: string }): Company {
    const domain = normalizeDomain(input.domain);
    if (!isDomain(domain)) throw new WorldError('invalid_request', 'domain must be a host name such as example.com', 'domain');
    const existing = this.companyByDomain.get(domain);
    if (existing) {
      existing.name = input.name;
      return { ...existing };
    }
    const company: Company = { domain, name: input.name, countryCode: 'US', industry: 'tech', legalSuffix: '', added: true };
    this.addedCompanies.set(domain, company);
    this.companyByDomain.set(domain, company);
    return { ...company };
  }

  addJob(input: NewJobInput): WorldJob {
    if (this.nextSlot >= MAX_SLOTS) throw new WorldError('capacity', 'no room for more added openings');
    const slot = this.nextSlot++;
    const domain = this.ensureCompany(input.companyDomain);
    const fields: JobFields = {
      title: input.title,
      companyDomain: domain,
      location: { city: null, region: null, countryCode: null, remote: null, ...dropUndefined(input.location ?? {}) },
      employmentType: input.employmentType ?? null,
      seniority: input.seniority ?? null,
      jobFamily: input.jobFamily ?? null,
      salary: input.salary ?? null,
      description: input.description ?? null,
      applyUrl: input.applyUrl ?? null,
    };
    const job: AddedJob = {
      id: this.market.worldJobId(slot, 0),
      slot,
      // the listing key's period bits carry the epoch: ids differ from an earlier process's
      period: this.addedEpoch,
      fields,
      titleNorm: normalizeText(fields.title),
      providers: uniqueProviders(input.providers),
      status: 'open',
      closedReason: null,
      closedAt: null,
      postedAt: input.postedAt ?? quantizeSecond(this.now()),
      repostCount: 0,
      adminReposts: 0,
      created: true,
      changedAt: this.now(),
    };
    this.added.set(job.id, job);
    this.addedBySlot.set(slot, job);
    this.addedVersion++;
    return this.materializeAdded(job);
  }

  patchJob(id: string, patch: JobPatch): WorldJob {
    const job = this.pin(id);
    const f = job.fields;
    if (patch.companyDomain !== undefined) f.companyDomain = this.ensureCompany(patch.companyDomain);
    if (patch.title !== undefined) {
      f.title = patch.title;
      job.titleNorm = normalizeText(patch.title);
    }
    if (patch.location !== undefined) f.location = patch.location === null ? { city: null, region: null, countryCode: null, remote: null } : { ...f.location, ...dropUndefined(patch.location) };
    if (patch.employmentType !== undefined) f.employmentType = patch.employmentType;
    if (patch.seniority !== undefined) f.seniority = patch.seniority;
    if (patch.jobFamily !== undefined) f.jobFamily = patch.jobFamily;
    if (patch.salary !== undefined) f.salary = patch.salary;
    if (patch.description !== undefined) f.description = patch.description;
    if (patch.applyUrl !== undefined) f.applyUrl = patch.applyUrl;
    if (patch.postedAt !== undefined) job.postedAt = patch.postedAt;
    if (patch.providers !== undefined) job.providers = uniqueProviders(patch.providers);
    job.changedAt = this.now();
    this.addedVersion++;
    return this.materializeAdded(job);
  }

  closeJob(id: string, reason: ClosedReason): WorldJob {
    const job = this.pin(id);
    job.closedAt = job.status === 'closed' ? job.closedAt : quantizeSecond(this.now());
    job.status = 'closed';
    job.closedReason = reason;
    job.changedAt = this.now();
    this.addedVersion++;
    return this.materializeAdded(job);
  }

  /** Lists the opening again under new provider ids, as a re-listing (also when it is open). */
  repostJob(id: string): WorldJob {
    const job = this.pin(id);
    job.status = 'open';
    job.closedReason = null;
    job.closedAt = null;
    job.adminReposts++;
    job.repostCount++;
    job.postedAt = quantizeSecond(this.now());
    job.changedAt = this.now();
    this.addedVersion++;
    return this.materializeAdded(job);
  }

  /** Freezes an organic opening's current truth into an added one that mutations then own. */
  private pin(id: string): AddedJob {
    const existing = this.added.get(id);
    if (existing) return existing;
    const truth = this.job(id);
    const ref = this.market.parseWorldJobId(id);
    if (!truth || !ref) throw new WorldError('not_found', `no world job ${id}`, 'world_job_id');
    const t = quantize(this.now());
    const k = this.market.periodIndex(ref.slot, t);
    const period = this.market.originOf(ref.slot, k) === ref.origin ? k : this.market.lastPeriodOf(ref.slot, ref.origin);
    const job: AddedJob = {
      id,
      slot: ref.slot,
      period,
      fields: {
        title: truth.title,
        companyDomain: truth.companyDomain,
        location: { ...truth.location },
        employmentType: truth.employmentType,
        seniority: truth.seniority,
        jobFamily: truth.jobFamily,
        salary: truth.salary ? { ...truth.salary } : null,
        description: truth.description,
        applyUrl: truth.applyUrl,
      },
      titleNorm: normalizeText(truth.title),
      providers: truth.providers,
      status: truth.status,
      closedReason: truth.closedReason,
      closedAt: truth.closedAt,
      postedAt: truth.postedAt,
      repostCount: truth.repostCount,
      adminReposts: 0,
      created: false,
      changedAt: this.now(),
    };
    this.added.set(id, job);
    this.pinned.set(PIN_KEY(ref.slot, ref.origin), job);
    return job;
  }

  private ensureCompany(domainInput: string): string {
    const domain = normalizeDomain(domainInput);
    if (!isDomain(domain)) throw new WorldError('invalid_request', 'company_domain must be a host name such as example.com', 'company_domain');
    if (!this.companyByDomain.has(domain)) {
      const label = domain.split('.')[0]!;
      this.addCompany({ domain, name: label.charAt(0).toUpperCase() + label.slice(1) });
    }
    return domain;
  }
}

/** The listing entry of an organic opening (`base`, its slot and origin) in period `period`, posted at `postedAt`. */
function organicEntry(base: OpeningBase, period: number, postedAt: number): Entry {
  return {
    packed: packListingKey(base.slot, period, 0),
    postedAt,
    titleNorm: base.titleNorm,
    countryCode: base.fields.location.countryCode,
    remote: base.fields.location.remote,
    domain: base.fields.companyDomain,
    slot: base.slot,
    period,
    origin: base.origin,
    added: null,
  };
}

/** The listing entry of an opening the control API created or pinned. */
function addedEntry(job: AddedJob): Entry {
  return {
    packed: packListingKey(job.slot, job.period, job.adminReposts),
    postedAt: job.postedAt,
    titleNorm: job.titleNorm,
    countryCode: job.fields.location.countryCode,
    remote: job.fields.location.remote,
    domain: job.fields.companyDomain,
    slot: job.slot,
    period: job.period,
    origin: 0,
    added: job,
  };
}

/** A keyword as the words each of which must start a word of the title. */
function keywordWords(keyword: string): string[] {
  return normalizeText(keyword).trim().split(' ').filter(Boolean);
}

/**
 * The words of a snapshot's titles, each with the entries whose title has it, built once per
 * snapshot (a provider's snapshot lasts a time bucket). `candidates` answers a keyword filter
 * with a mask over the entries: exactly those `compileQuery`'s keyword test passes (a title word
 * starting with each word of a keyword is what ` ${w}` finds in the normalized title, whose
 * words are single-space separated).
 */
class TitleIndex {
  private readonly byWord = new Map<string, number[]>();
  private readonly byPrefix = new Map<string, Uint8Array>();

  constructor(private readonly entries: readonly Entry[]) {
    for (let i = 0; i < entries.length; i++) {
      for (const word of new Set(entries[i]!.titleNorm.slice(1).split(' '))) {
        let at = this.byWord.get(word);
        if (!at) this.byWord.set(word, (at = []));
        at.push(i);
      }
    }
  }

  /** 1 for each entry whose title matches any of the keywords; undefined when none has a word (no keyword filter). */
  candidates(keywords: readonly string[]): Uint8Array | undefined {
    const wordsOf = keywords.map(keywordWords).filter((words) => words.length > 0);
    if (wordsOf.length === 0) return undefined;
    const mask = new Uint8Array(this.entries.length);
    for (const words of wordsOf) {
      const masks = words.map((w) => this.prefixMask(w));
      for (let i = 0; i < mask.length; i++) if (mask[i] === 0 && masks.every((m) => m[i] === 1)) mask[i] = 1;
    }
    return mask;
  }

  /** The entries with a title word starting with `prefix`, remembered for the snapshot's life. */
  private prefixMask(prefix: string): Uint8Array {
    let mask = this.byPrefix.get(prefix);
    if (mask) return mask;
    mask = new Uint8Array(this.entries.length);
    for (const [word, at] of this.byWord) if (word.startsWith(prefix)) for (const i of at) mask[i] = 1;
    // a snapshot meets few distinct keywords; bound it anyway against a caller sending many
    if (this.byPrefix.size < 1024) this.byPrefix.set(prefix, mask);
    return mask;
  }
}

function compileQuery(q: SearchQuery): (e: Entry) => boolean {
  const keywords = (q.titleAny ?? []).map(keywordWords).filter((w) => w.length > 0);
  const domains = q.companyDomain ? new Set(q.companyDomain.split(',').map(normalizeDomain).filter(Boolean)) : undefined;
  const country = q.countryCode?.toUpperCase();
  return (e) => {
    if (country !== undefined && e.countryCode !== country) return false;
    if (q.remote !== undefined && e.remote !== q.remote) return false;
    if (q.postedSince !== undefined && e.postedAt < q.postedSince) return false;
    if (domains !== undefined && !domains.has(e.domain)) return false;
    if (keywords.length > 0 && !keywords.some((words) => words.every((w) => e.titleNorm.includes(` ${w}`)))) return false;
    return true;
  };
}

function byFreshness(a: Entry, b: Entry): number {
  return b.postedAt - a.postedAt || a.packed - b.packed;
}

function mergeSorted(a: Entry[], b: Entry[]): Entry[] {
  const out: Entry[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) out[n++] = byFreshness(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  while (i < a.length) out[n++] = a[i++]!;
  while (j < b.length) out[n++] = b[j++]!;
  return out;
}

function quantize(t: number): number {
  return Math.floor(t / TIME_BUCKET_MS) * TIME_BUCKET_MS;
}

function quantizeSecond(t: number): number {
  return Math.floor(t / 1000) * 1000;
}

function uniqueProviders(list: readonly ProviderSlug[]): ProviderSlug[] {
  return PROVIDER_SLUGS.filter((s) => list.includes(s));
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** "https://www.Example.com/careers" → "example.com". */
export function normalizeDomain(input: string): string {
  return input
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/^www\./, '')
    .replace(/\.$/, '');
}

function isDomain(domain: string): boolean {
  return /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/.test(domain);
}
