import { generateCompanies } from './market-companies.js';
import { describeOpening } from './market-description.js';
import { generateOpening, type OpeningBase } from './market-opening.js';
import { Rng, fnv1a, hash32, pickCumulative, unit } from './prng.js';
import { MAX_LISTING_SLOTS } from './provider-ids.js';
import type { ClosedReason, Company, JobFields } from './types.js';
import { COUNTRIES, countryByCode } from './vocab/countries.js';
import { UPDATES } from './vocab/companies.js';

export { LISTING_SHARE, type OpeningBase } from './market-opening.js';

export const DAY_MS = 86_400_000;
/** Organic state is a function of time quantised to this bucket, so processes agree. */
export const TIME_BUCKET_MS = 60_000;
/** Slots at or above this number belong to openings created or pinned by the control API. */
export const ADDED_SLOT_BASE = 160_000;
export const MAX_SLOTS = MAX_LISTING_SLOTS;

const TAG = {
  slot: fnv1a('slot'),
  id: fnv1a('world-id'),
  openFraction: fnv1a('open-fraction'),
  repost: fnv1a('repost'),
  reason: fnv1a('closed-reason'),
  change: fnv1a('change'),
};

const REPOST_PROBABILITY = 0.2;
const MAX_REPOST_CHAIN = 8;

/** One period of a slot: the opening is live from `start` to `openUntil`, then closed until `end`. */
export interface Period {
  k: number;
  start: number;
  openUntil: number;
  end: number;
}

export interface MarketOptions {
  seed: number;
  companies: number;
  slots: number;
  /** Bare openings and multi-city requisitions among the openings (`generateOpening`). */
  messy?: boolean;
}

/**
 * The seeded market: companies, and "slots" (standing requisitions of a company). Time is cut
 * per slot into periods; each period an opening is posted, stays open for a while and closes.
 * A period either re-lists the previous period's opening (a repost: same world id, new
 * provider ids) or posts a new opening. Everything is a pure function of (seed, slot, period).
 */
export class Market {
  readonly seed: number;
  readonly companies: Company[];
  readonly slotCount: number;
  private readonly messy: boolean;
  private readonly companyCumulative: Float64Array;
  private readonly offices: string[][];
  private readonly slotCompany: Uint32Array;
  private readonly slotCountry: Uint8Array;
  private readonly slotPeriod: Float64Array;
  private readonly slotPhase: Float64Array;
  /** Per-slot memo of the last computed period, the hot path of every snapshot. */
  private readonly memoK: Float64Array;
  private readonly memoOrigin: Float64Array;
  private readonly memoStart: Float64Array;
  private readonly memoOpenUntil: Float64Array;
  private readonly baseCache: (OpeningBase | undefined)[];

  constructor(options: MarketOptions) {
    if (options.slots > ADDED_SLOT_BASE) throw new Error(`at most ${ADDED_SLOT_BASE} slots`);
    this.seed = options.seed >>> 0;
    this.slotCount = options.slots;
    this.messy = options.messy ?? false;
    const generated = generateCompanies({ seed: this.seed, count: options.companies });
    this.companies = generated.companies;
    this.companyCumulative = generated.cumulative;
    this.offices = generated.offices;
    this.slotCompany = new Uint32Array(options.slots);
    this.slotCountry = new Uint8Array(options.slots);
    this.slotPeriod = new Float64Array(options.slots);
    this.slotPhase = new Float64Array(options.slots);
    this.memoK = new Float64Array(options.slots).fill(Number.NaN);
    this.memoOrigin = new Float64Array(options.slots);
    this.memoStart = new Float64Array(options.slots);
    this.memoOpenUntil = new Float64Array(options.slots);
    this.baseCache = new Array<OpeningBase | undefined>(options.slots);
    this.generateSlots();
  }

  // ---------------------------------------------------------------- generation

  private generateSlots(): void {
    const countryIndex = new Map(COUNTRIES.map((c, i) => [c.code, i]));
    for (let s = 0; s < this.slotCount; s++) {
      const rng = new Rng(hash32(this.seed, TAG.slot, s));
      const company = pickCumulative(this.companyCumulative, rng.next());
      const offices = this.offices[company]!;
      const code = rng.chance(0.8) ? offices[0]! : rng.pick(offices);
      this.slotCompany[s] = company;
      this.slotCountry[s] = countryIndex.get(code)!;
      // Whole seconds, so posting times print without milliseconds.
      const period = Math.round((20 + rng.next() * 55) * 86_400) * 1000;
      this.slotPeriod[s] = period;
      this.slotPhase[s] = Math.floor((rng.next() * period) / 1000) * 1000;
    }
  }

  /** The opening first posted in period `origin` of `slot`. */
  base(slot: number, origin: number): OpeningBase {
    const cached = this.baseCache[slot];
    if (cached && cached.origin === origin) return cached;
    const base = this.generateBase(slot, origin);
    if (!cached || cached.origin < origin) this.baseCache[slot] = base;
    return base;
  }

  private generateBase(slot: number, origin: number): OpeningBase {
    const companyIndex = this.slotCompany[slot]!;
    return generateOpening({
      seed: this.seed,
      id: this.worldJobId(slot, origin),
      slot,
      origin,
      companyIndex,
      company: this.companies[companyIndex]!,
      country: COUNTRIES[this.slotCountry[slot]!]!,
      messy: this.messy,
    });
  }

  /** Plain-text description built from templates (computed on demand, never stored); none for a bare posting. */
  description(base: OpeningBase): string | null {
    return base.bare ? null : describeOpening(base, this.companies[base.companyIndex]!);
  }

  // ---------------------------------------------------------------- lifecycle

  /** Period index of `slot` at time `t`. */
  periodIndex(slot: number, t: number): number {
    return Math.floor((t + this.slotPhase[slot]!) / this.slotPeriod[slot]!);
  }

  period(slot: number, k: number): Period {
    const length = this.slotPeriod[slot]!;
    const start = k * length - this.slotPhase[slot]!;
    const openFraction = 0.72 + 0.23 * unit(this.seed, TAG.openFraction, slot, k);
    return { k, start, openUntil: start + Math.floor(length * openFraction), end: start + length };
  }

  isRepost(slot: number, k: number): boolean {
    return unit(this.seed, TAG.repost, slot, k) < REPOST_PROBABILITY;
  }

  /** First period of the repost chain that period `k` belongs to. */
  originOf(slot: number, k: number): number {
    let j = k;
    while (k - j < MAX_REPOST_CHAIN && this.isRepost(slot, j)) j--;
    return j;
  }

  /** Last period of the chain that started at `origin` (later periods post a new opening). */
  lastPeriodOf(slot: number, origin: number): number {
    let j = origin;
    while (j - origin < MAX_REPOST_CHAIN - 1 && this.isRepost(slot, j + 1)) j++;
    return j;
  }

  closedReason(slot: number, k: number): ClosedReason {
    const u = unit(this.seed, TAG.reason, slot, k);
    // A listing that is re-posted next period was not filled.
    if (this.isRepost(slot, k + 1)) return u < 0.75 ? 'expired' : 'removed';
    return u < 0.6 ? 'filled' : u < 0.9 ? 'expired' : 'removed';
  }

  /** Times within period `k` at which the opening's fields change (0 to 2 of them). */
  changePoints(slot: number, p: Period): number[] {
    const span = p.openUntil - p.start;
    const points: number[] = [];
    if (unit(this.seed, TAG.change, slot, p.k, 1) < 0.35)
      points.push(p.start + Math.floor(span * (0.15 + 0.35 * unit(this.seed, TAG.change, slot, p.k, 2))));
    if (unit(this.seed, TAG.change, slot, p.k, 3) < 0.2)
      points.push(p.start + Math.floor(span * (0.55 + 0.35 * unit(this.seed, TAG.change, slot, p.k, 4))));
    return points;
  }

  /**
   * Hot path of snapshots: the period, origin and open state of `slot` at `t`, memoised per
   * slot. Returns the origin, or -1 when the slot's opening is closed at `t`.
   */
  openOriginAt(slot: number, t: number): number {
    const k = this.periodIndex(slot, t);
    if (this.memoK[slot] !== k) {
      const p = this.period(slot, k);
      this.memoK[slot] = k;
      this.memoOrigin[slot] = this.originOf(slot, k);
      this.memoStart[slot] = p.start;
      this.memoOpenUntil[slot] = p.openUntil;
    }
    return t < this.memoOpenUntil[slot]! ? this.memoOrigin[slot]! : -1;
  }

  /** Start of the slot's current period, valid right after `openOriginAt` for the same t. */
  memoStartOf(slot: number): number {
    return this.memoStart[slot]!;
  }

  memoPeriodOf(slot: number): number {
    return this.memoK[slot]!;
  }

  /** Organic field changes: those of every earlier period of the chain and those of period k before t. */
  applyChanges(base: OpeningBase, k: number, t: number, fields: JobFields): JobFields {
    let out = fields;
    for (let j = base.origin; j <= k; j++) {
      const points = this.changePoints(base.slot, this.period(base.slot, j));
      points.forEach((at, v) => {
        if (j === k && at > t) return;
        out = this.applyChange(base, j, v, out);
      });
    }
    return out;
  }

  private applyChange(base: OpeningBase, k: number, v: number, fields: JobFields): JobFields {
    // a bare posting states nothing that could change
    if (base.bare) return fields;
    const h = hash32(this.seed, TAG.change, base.slot, k, 10 + v);
    if (fields.salary && (h & 1) === 0) {
      const factor = 1.05 + ((h >>> 1) % 8) / 100;
      const step = fields.salary.period === 'hour' ? 0.5 : (countryByCode(fields.location.countryCode)?.round ?? 1000);
      const bump = (n: number | null): number | null => (n === null ? null : Math.round((n * factor) / step) * step);
      return { ...fields, salary: { ...fields.salary, min: bump(fields.salary.min), max: bump(fields.salary.max) } };
    }
    return { ...fields, description: `${fields.description ?? ''} ${UPDATES[(h >>> 1) % UPDATES.length]!}`.trim() };
  }

  // ---------------------------------------------------------------- ids

  /** `wj_` + 4 hex (seed-dependent check) + slot in 4 base-36 digits + origin period in base 36. */
  worldJobId(slot: number, origin: number): string {
    const check = (hash32(this.seed, TAG.id, slot, origin) & 0xffff).toString(16).padStart(4, '0');
    return `wj_${check}${slot.toString(36).padStart(4, '0')}${origin.toString(36)}`;
  }

  parseWorldJobId(id: string): { slot: number; origin: number } | null {
    const m = /^wj_([0-9a-f]{4})([0-9a-z]{4})([0-9a-z]+)$/.exec(id);
    if (!m) return null;
    const slot = parseInt(m[2]!, 36);
    const origin = parseInt(m[3]!, 36);
    if (slot >= MAX_SLOTS || this.worldJobId(slot, origin) !== id) return null;
    return { slot, origin };
  }

  companyOfSlot(slot: number): Company {
    return this.companies[this.slotCompany[slot]!]!;
  }
}
