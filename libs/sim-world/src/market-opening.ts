import { perProvider } from '@jobs/contracts';
import { titleSearchText } from '@jobs/job-filters';
import { Rng, fnv1a, hash32, unit } from './prng.js';
import {
  PROVIDER_SLUGS,
  SENIORITIES,
  type Company,
  type ProviderSlug,
  type EmploymentType,
  type JobFields,
  type Location,
  type Salary,
  type Seniority,
} from './types.js';
import type { CountryInfo } from './vocab/countries.js';
import { SIM_PROVIDERS } from './providers/sim-providers.js';
import {
  FAMILIES,
  INDUSTRY_FAMILY_WEIGHTS,
  SENIORITY_PAY,
  SENIORITY_WEIGHTS,
  buildTitle,
  type FamilyInfo,
} from './vocab/families.js';

/** Share of openings each source lists, before the per-opening visibility factor (the simulator's registry). */
export const LISTING_SHARE: Readonly<Record<ProviderSlug, number>> = perProvider(
  (slug) => SIM_PROVIDERS[slug].listingShare,
);

const OPENING_TAG = fnv1a('opening');
const SENIORITY_WEIGHT_LIST = SENIORITIES.map((s) => SENIORITY_WEIGHTS[s]);

/** The generated, time-independent part of one opening (one slot, one origin period). */
export interface OpeningBase {
  id: string;
  slot: number;
  /** Period index in which the opening was first posted (reposts keep it). */
  origin: number;
  companyIndex: number;
  fields: Omit<JobFields, 'description'>;
  /** The title's search text (`titleSearchText` of @jobs/job-filters), for keyword matching. */
  titleNorm: string;
  /** Bit i set: PROVIDER_SLUGS[i] lists the opening. */
  providerMask: number;
  descriptionSeed: number;
  teamIndex: number;
  /** A bare posting (a messy market's): a title and a company, nothing else stated, no description. */
  bare?: boolean;
}

/** Where an opening is drawn: its slot and origin period, its employer and the slot's country. */
export interface OpeningDraw {
  seed: number;
  /** The opening's world job id, derived from the slot and the origin period. */
  id: string;
  slot: number;
  origin: number;
  companyIndex: number;
  company: Company;
  country: CountryInfo;
  /** A messy market (`WorldOptions.messy`): some openings bare, some one requisition in several cities. */
  messy?: boolean;
}

/**
 * In a messy market: the share of openings posted bare, and of those that are one of a company's multi-city
 * requisitions.
 */
export const BARE_SHARE = 0.06;
export const MULTI_CITY_SHARE = 0.08;
const BARE_TAG = fnv1a('bare');
const MULTI_CITY_TAG = fnv1a('multi-city');

/** The opening first posted in period `origin` of `slot`: a pure function of the draw. */
export function generateOpening(draw: OpeningDraw): OpeningBase {
  const { seed, slot, origin, companyIndex, company, country } = draw;
  const rng = new Rng(hash32(seed, OPENING_TAG, slot, origin));
  const own = pickRole(rng, company);
  // one of the company's requisitions posted in several cities: its title everywhere, its own city
  const multiCity = draw.messy === true && unit(seed, MULTI_CITY_TAG, slot, origin) < MULTI_CITY_SHARE;
  const { family, seniority, title } = multiCity
    ? pickRole(new Rng(hash32(seed, MULTI_CITY_TAG, companyIndex)), company)
    : own;
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
  const salary = rng.chance(country.salaryShare)
    ? makeSalary(rng, { family, seniority, employmentType, country })
    : null;
  const slugTitle = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const applyStyle = rng.int(3);
  const token = hash32(seed, slot, origin).toString(16).padStart(8, '0').slice(0, 6);
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
  const descriptionSeed = rng.int(0x7fffffff);
  const teamIndex = rng.int(family.teams.length);
  // a bare posting states a title and a company, nothing else
  const bare = draw.messy === true && unit(seed, BARE_TAG, slot, origin) < BARE_SHARE;
  return {
    id: draw.id,
    slot,
    origin,
    companyIndex,
    fields: bare
      ? {
          title,
          companyDomain: company.domain,
          location: { city: null, region: null, countryCode: null, remote: null },
          employmentType: null,
          seniority: null,
          jobFamily: null,
          salary: null,
          applyUrl: null,
        }
      : {
          title,
          companyDomain: company.domain,
          location,
          employmentType,
          seniority,
          jobFamily: family.family,
          salary,
          applyUrl,
        },
    titleNorm: titleSearchText(title),
    providerMask,
    descriptionSeed,
    teamIndex,
    ...(bare ? { bare: true } : {}),
  };
}

/** A role of the company's industry: its family, seniority and title. */
function pickRole(rng: Rng, company: Company) {
  const family = FAMILIES[rng.weighted(INDUSTRY_FAMILY_WEIGHTS[company.industry] ?? INDUSTRY_FAMILY_WEIGHTS['tech']!)]!;
  const seniority = SENIORITIES[rng.weighted(SENIORITY_WEIGHT_LIST)]!;
  const role = rng.pick(family.roles);
  const specialty = rng.chance(0.25) ? rng.pick(family.specialties) : null;
  return { family, seniority, title: buildTitle(family, role, seniority, specialty, rng.int(6)) };
}

/** What an opening's pay depends on. */
interface SalaryInputs {
  family: FamilyInfo;
  seniority: Seniority;
  employmentType: EmploymentType;
  country: CountryInfo;
}

function makeSalary(rng: Rng, { family, seniority, employmentType, country }: SalaryInputs): Salary {
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
