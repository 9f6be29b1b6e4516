import type { NormalizedProviderRecord, Salary } from '@jobs/contracts';
import { canonicalApplyUrl, companyNameKey, normalizeDomain, normalizePlace, normalizeTitle } from './normalize.js';
import { sketchText, type TextSketch } from './text-sketch.js';

/**
 * The fields of an opening that matching reads, in one shape for a provider record and for a
 * canonical job (the repository maps its rows into it).
 */
export interface MatchFields {
  title: string;
  companyName: string;
  companyDomain: string | null;
  city: string | null;
  region: string | null;
  countryCode: string | null;
  remote: boolean | null;
  employmentType: string | null;
  seniority: string | null;
  /** Not matched on: carried for the canonical job's value. */
  jobFamily: string | null;
  salary: Salary | null;
  description: string | null;
  applyUrl: string | null;
  /** ISO 8601; a time of exactly 00:00:00.000Z is read as "that day" (providers that send dates only). */
  postedAt: string | null;
}

export function fieldsOfRecord(record: NormalizedProviderRecord): MatchFields {
  return {
    title: record.title,
    companyName: record.company.name,
    companyDomain: normalizeDomain(record.company.domain),
    city: record.location.city,
    region: record.location.region,
    countryCode: record.location.country_code,
    remote: record.location.remote,
    employmentType: record.employment_type,
    seniority: record.seniority,
    jobFamily: record.job_family,
    salary: record.salary,
    description: record.description,
    applyUrl: record.apply_url,
    postedAt: record.posted_at,
  };
}

/** Everything the scorer compares, computed once per record or canonical job. */
export interface MatchFeatures {
  domain: string | null;
  companyKey: string;
  titleKey: string;
  titleTokens: ReadonlySet<string>;
  countryCode: string | null;
  city: string | null;
  region: string | null;
  remote: boolean | null;
  employmentType: string | null;
  seniority: string | null;
  /** Declared salaries only: a source's own estimate says nothing about the posting. */
  salary: Salary | null;
  applyUrl: string | null;
  /** Epoch ms. */
  postedAt: number | null;
  postedDayOnly: boolean;
  description: TextSketch | null;
}

/** `description`: a sketch already made of `fields.description`, to skip re-sketching an unchanged text. */
export function featuresOf(fields: MatchFields, description?: TextSketch | null): MatchFeatures {
  const titleKey = normalizeTitle(fields.title);
  const posted = fields.postedAt ? Date.parse(fields.postedAt) : Number.NaN;
  return {
    domain: normalizeDomain(fields.companyDomain),
    companyKey: companyNameKey(fields.companyName),
    titleKey,
    titleTokens: new Set(titleKey.split(' ')),
    countryCode: fields.countryCode?.toUpperCase() ?? null,
    city: normalizePlace(fields.city),
    region: normalizePlace(fields.region),
    remote: fields.remote,
    employmentType: fields.employmentType,
    seniority: fields.seniority,
    salary:
      fields.salary && fields.salary.origin === 'declared' && (fields.salary.min !== null || fields.salary.max !== null)
        ? fields.salary
        : null,
    applyUrl: canonicalApplyUrl(fields.applyUrl),
    postedAt: Number.isFinite(posted) ? posted : null,
    postedDayOnly: Number.isFinite(posted) && isDayOnly(posted),
    description: description === undefined ? sketchText(fields.description) : description,
  };
}

const DAY_MS = 86_400_000;

function isDayOnly(t: number): boolean {
  return t % DAY_MS === 0;
}

/**
 * Candidate-generation keys (multi-key blocking): a record is compared only with canonical jobs
 * that share one of them.
 * - `u:` the canonical apply URL (title edits and company spellings cannot hide it);
 * - `d:` company domain + normalized title + country;
 * - `n:` normalized company name + normalized title + country, so records without a domain
 *   (Provider E) meet their domain-bearing twins, whose `n:` keys the canonical job also holds.
 */
export function blockingKeys(f: MatchFeatures): string[] {
  const country = f.countryCode ?? '-';
  const keys: string[] = [];
  if (f.applyUrl) keys.push(`u:${f.applyUrl}`);
  if (f.domain) keys.push(`d:${f.domain}|${f.titleKey}|${country}`);
  keys.push(`n:${f.companyKey}|${f.titleKey}|${country}`);
  return keys;
}
