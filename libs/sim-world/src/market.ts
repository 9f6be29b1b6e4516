import { COUNTRIES, countryByCode, type CountryInfo } from './vocab/countries.js';
import { BENEFITS, INDUSTRIES, NAME_PREFIXES, NAME_ROOTS, UPDATES } from './vocab/companies.js';
import {
  FAMILIES,
  INDUSTRY_FAMILY_WEIGHTS,
  SENIORITY_PAY,
  SENIORITY_WEIGHTS,
  buildTitle,
  type FamilyInfo,
} from './vocab/families.js';
import { Rng, fnv1a, hash32, pickCumulative, unit } from './prng.js';
import { MAX_LISTING_SLOTS } from './provider-ids.js';
import {
  PROVIDER_SLUGS,
  SENIORITIES,
  type ClosedReason,
  type Company,
  type EmploymentType,
  type JobFields,
  type Location,
  type Salary,
  type Seniority,
} from './types.js';

export const DAY_MS = 86_400_000;
/** Organic state is a function of time quantised to this bucket, so processes agree. */
export const TIME_BUCKET_MS = 60_000;
/** Slots at or above this number belong to openings created or pinned by the control API. */
export const ADDED_SLOT_BASE = 160_000;
export const MAX_SLOTS = MAX_LISTING_SLOTS;

/** Share of openings each source lists, before the per-opening visibility factor. */
export const LISTING_SHARE: Readonly<Record<(typeof PROVIDER_SLUGS)[number], number>> = {
  own_index: 0.3,
  provider_a: 0.55,
  provider_b: 0.45,
  provider_c: 0.36,
  provider_d: 0.4,
  provider_e: 0.3,
  provider_f: 0.32,
};

const TAG = {
  companies: fnv1a('companies'),
  slot: fnv1a('slot'),
  opening: fnv1a('opening'),
  id: fnv1a('world-id'),
  openFraction: fnv1a('open-fraction'),
  repost: fnv1a('repost'),
  reason: fnv1a('closed-reason'),
  change: fnv1a('change'),
};

const SENIORITY_WEIGHT_LIST = SENIORITIES.map((s) => SENIORITY_WEIGHTS[s]);
const COUNTRY_WEIGHTS = COUNTRIES.map((c) => c.weight);
const INDUSTRY_WEIGHTS = INDUSTRIES.map((i) => i.weight);
const REPOST_PROBABILITY = 0.2;
const MAX_REPOST_CHAIN = 8;

/** The generated, time-independent part of one opening (one slot, one origin period). */
export interface OpeningBase {
  id: string;
  slot: number;
  /** Period index in which the opening was first posted (reposts keep it). */
  origin: number;
  companyIndex: number;
  fields: Omit<JobFields, 'description'>;
  /** Lower-cased title with single spaces and a leading space, for keyword matching. */
  titleNorm: string;
  /** Bit i set: PROVIDER_SLUGS[i] lists the opening. */
  providerMask: number;
  descriptionSeed: number;
  teamIndex: number;
}

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
}

/**
 * The seeded market: companies, and "slots" (standing requisitions of a company). Time is cut
 * per slot into periods; each period an opening is posted, stays open for a while and closes.
 * A period either re-lists the previous period's opening (a repost: same world id, new
 * provider ids) or posts a new opening. Everything is a pure function of (seed, slot, period).
 */
export class Market {
  readonly seed: number;
  readonly companies: Company[] = [];
  readonly slotCount: number;
  private readonly companyCumulative: Float64Array;
  private readonly offices: string[][] = [];
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
    this.companyCumulative = new Float64Array(options.companies);
    this.generateCompanies(options.companies);
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

  private generateCompanies(count: number): void {
    const rng = new Rng(hash32(this.seed, TAG.companies));
    const names = new Set<string>();
    const domains = new Set<string>();
    let total = 0;
    for (let i = 0; i < count; i++) {
      const industry = INDUSTRIES[rng.weighted(INDUSTRY_WEIGHTS)]!;
      const country = COUNTRIES[rng.weighted(COUNTRY_WEIGHTS)]!;
      let compound = '';
      let word: string | null = null;
      let name = '';
      for (let attempt = 0; ; attempt++) {
        compound = rng.pick(NAME_PREFIXES) + rng.pick(NAME_ROOTS);
        word = rng.chance(0.65) || attempt > 20 ? rng.pick(industry.words) : null;
        name = word ? `${compound} ${word}` : compound;
        if (attempt > 40) name = `${name} ${attempt}`;
        if (!names.has(name)) break;
      }
      names.add(name);
      const tld = rng.chance(0.6) ? '.com' : country.tld;
      const stem = compound.toLowerCase();
      const candidates = [
        word && rng.chance(0.4) ? `${stem}${word.toLowerCase()}${tld}` : `${stem}${tld}`,
        `${stem}${tld}`,
        word ? `${stem}-${word.toLowerCase()}${tld}` : `${stem}-group${tld}`,
        `${stem}${country.tld}`,
        `${stem}.io`,
      ];
      let domain = candidates.find((d) => !domains.has(d));
      for (let n = 2; !domain; n++) if (!domains.has(`${stem}${n}${tld}`)) domain = `${stem}${n}${tld}`;
      domains.add(domain);
      this.companies.push({
        domain,
        name,
        countryCode: country.code,
        industry: industry.industry,
        legalSuffix: rng.pick(country.legal),
        added: false,
      });
      // Zipf-like sizes: a few large employers, a long tail of small ones.
      total += 1 / Math.pow(i + 3, 0.85);
      this.companyCumulative[i] = total;
      const offices = [country.code];
      if (i < 400) {
        const extra = 1 + rng.int(i < 60 ? 5 : 2);
        for (let e = 0; e < extra; e++) offices.push(COUNTRIES[rng.weighted(COUNTRY_WEIGHTS)]!.code);
      }
      this.offices.push(offices);
    }
  }

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
    const rng = new Rng(hash32(this.seed, TAG.opening, slot, origin));
    const companyIndex = this.slotCompany[slot]!;
    const company = this.companies[companyIndex]!;
    const country = COUNTRIES[this.slotCountry[slot]!]!;
    const family =
      FAMILIES[rng.weighted(INDUSTRY_FAMILY_WEIGHTS[company.industry] ?? INDUSTRY_FAMILY_WEIGHTS['tech']!)]!;
    const seniority = SENIORITIES[rng.weighted(SENIORITY_WEIGHT_LIST)]!;
    const role = rng.pick(family.roles);
    const specialty = rng.chance(0.25) ? rng.pick(family.specialties) : null;
    const title = buildTitle(family, role, seniority, specialty, rng.int(6));
    const employmentType: EmploymentType =
      seniority === 'intern'
        ? 'internship'
        : (['full_time', 'part_time', 'contract', 'temporary'] as const)[rng.weighted([82, 6, 8, 4])]!;
    const [city, region] = rng.pick(country.cities);
    const remote = rng.chance(family.family === 'engineering' || family.family === 'data' ? 0.24 : 0.1);
    const location: Location =
      remote && rng.chance(0.5)
        ? { city: null, region: null, countryCode: country.code, remote: true }
        : { city, region, countryCode: country.code, remote };
    const salary = rng.chance(country.salaryShare) ? makeSalary(rng, family, seniority, employmentType, country) : null;
    const slugTitle = title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    const applyStyle = rng.int(3);
    const token = hash32(this.seed, slot, origin).toString(16).padStart(8, '0').slice(0, 6);
    const applyUrl =
      applyStyle === 0
        ? `https://careers.${company.domain}/jobs/${slugTitle}-${token}`
        : applyStyle === 1
          ? `https://${company.domain}/careers/${token}`
          : `https://jobs.${company.domain}/o/${slugTitle}?id=${token}`;
    // How visible the employer is: big companies and some postings reach more boards.
    const visibility = rng.range(0.55, 1.35) + (companyIndex < 100 ? 0.2 : 0);
    let providerMask = 0;
    PROVIDER_SLUGS.forEach((slug, i) => {
      if (rng.chance(Math.min(0.95, LISTING_SHARE[slug] * visibility))) providerMask |= 1 << i;
    });
    if (providerMask === 0) providerMask = 1 << rng.weighted(PROVIDER_SLUGS.map((s) => LISTING_SHARE[s]));
    return {
      id: this.worldJobId(slot, origin),
      slot,
      origin,
      companyIndex,
      fields: {
        title,
        companyDomain: company.domain,
        location,
        employmentType,
        seniority,
        jobFamily: family.family,
        salary,
        applyUrl,
      },
      titleNorm: normalizeText(title),
      providerMask,
      descriptionSeed: rng.int(0x7fffffff),
      teamIndex: rng.int(family.teams.length),
    };
  }

  /** Plain-text description built from templates (computed on demand, never stored). */
  description(base: OpeningBase): string {
    const rng = new Rng(base.descriptionSeed);
    const f = base.fields;
    const family = FAMILIES.find((x) => x.family === f.jobFamily) ?? FAMILIES[0]!;
    const company = this.companies[base.companyIndex]!;
    const team = family.teams[base.teamIndex] ?? family.teams[0]!;
    const where = f.location.city ? ` in ${f.location.city}` : '';
    const duties = pickTwo(rng, family.duties);
    const skills = pickTwo(rng, family.skills);
    const years = { intern: 0, junior: 1, mid: 3, senior: 5, lead: 7, director: 10, vp: 12, c_level: 15 }[
      f.seniority ?? 'mid'
    ];
    const sentences = [
      [
        `${company.name} is hiring ${article(f.title)} ${f.title} to join the ${team} team${where}.`,
        `At ${company.name}, our ${team} team is looking for ${article(f.title)} ${f.title}${where}.`,
        `Join ${company.name} as ${article(f.title)} ${f.title} and help us grow.`,
      ][rng.int(3)]!,
      `In this role you will ${duties[0]} and ${duties[1]}.`,
      years > 0
        ? `We are looking for someone with ${years}+ years of ` +
          `experience in ${skills[0]} and a good working knowledge of ` +
          `${skills[1]}.`
        : `You are studying towards a degree and are curious about ${skills[0]} and ${skills[1]}.`,
      f.location.remote
        ? 'This is a fully remote position.'
        : f.location.city
          ? rng.chance(0.5)
            ? `You will work from our ${f.location.city} office, with up to two days a week from home.`
            : `This role is based in our ${f.location.city} office.`
          : 'This role is on-site.',
    ];
    if (f.employmentType === 'contract')
      sentences.push(`This is a ${6 + rng.int(3) * 3}-month contract with a possible extension.`);
    if (f.employmentType === 'part_time') sentences.push('This is a part-time role of 20 to 30 hours a week.');
    sentences.push(rng.pick(BENEFITS));
    return sentences.join(' ');
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

function makeSalary(
  rng: Rng,
  family: FamilyInfo,
  seniority: Seniority,
  employmentType: EmploymentType,
  country: CountryInfo,
): Salary {
  const local = family.baseUsd * SENIORITY_PAY[seniority] * country.payFactor * rng.range(0.85, 1.2);
  const hourly =
    (employmentType === 'part_time' || employmentType === 'temporary' || employmentType === 'contract') &&
    rng.chance(0.6);
  let mid = local;
  let step = country.round;
  let period: Salary['period'] = country.period;
  if (hourly) {
    mid = (country.period === 'month' ? local * 12 : local) / 2000;
    step = mid < 200 ? 0.5 : country.round / 100;
    period = 'hour';
  }
  const round = (n: number): number => Math.max(step, Math.round(n / step) * step);
  let min: number | null = round(mid * rng.range(0.86, 0.95));
  let max: number | null = round(mid * rng.range(1.06, 1.25));
  const shape = rng.next();
  if (shape < 0.08) max = null;
  else if (shape < 0.12) min = null;
  return { min, max, currency: country.currency, period };
}

function pickTwo<T>(rng: Rng, items: readonly T[]): [T, T] {
  const a = rng.int(items.length);
  const b = (a + 1 + rng.int(items.length - 1)) % items.length;
  return [items[a]!, items[b]!];
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** Lower-cased words separated by single spaces, with a leading space (for prefix matching). */
export function normalizeText(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}+#]+/gu, ' ')
    .trim()}`;
}
