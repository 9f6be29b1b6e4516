import type { NormalizedProviderRecord, Salary } from '@jobs/contracts';
import { canonicalApplyUrl, normalizeCompanyName, normalizeDomain, normalizePlace, normalizeTitle } from './normalize.js';
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
    companyKey: normalizeCompanyName(fields.companyName) || fields.companyName.toLowerCase(),
    titleKey,
    titleTokens: new Set(titleKey.split(' ')),
    countryCode: fields.countryCode?.toUpperCase() ?? null,
    city: normalizePlace(fields.city),
    region: normalizePlace(fields.region),
    remote: fields.remote,
    employmentType: fields.employmentType,
    seniority: fields.seniority,
    salary: fields.salary && fields.salary.origin === 'declared' && (fields.salary.min !== null || fields.salary.max !== null) ? fields.salary : null,
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
 *   (provider_e) meet their domain-bearing twins, whose `n:` keys the canonical job also holds.
 */
export function blockingKeys(f: MatchFeatures): string[] {
  const country = f.countryCode ?? '-';
  const keys: string[] = [];
  if (f.applyUrl) keys.push(`u:${f.applyUrl}`);
  if (f.domain) keys.push(`d:${f.domain}|${f.titleKey}|${country}`);
  keys.push(`n:${f.companyKey}|${f.titleKey}|${country}`);
  return keys;
}

/**
 * What merging a record changes in a canonical job: gaps filled, and better values taken where
 * the job's are known to be partial (a snippet description, a date-only posting time, an
 * estimated salary, a company without domain). First-seen values are otherwise kept, so a
 * job's fields do not flap between providers.
 */
export function mergeFields(job: MatchFields, record: MatchFields): Partial<MatchFields> {
  const out: Partial<MatchFields> = {};
  if (!job.companyDomain && record.companyDomain) {
    out.companyDomain = record.companyDomain;
    out.companyName = record.companyName;
  }
  if (job.city === null && job.region === null && record.city !== null && job.countryCode === record.countryCode) {
    out.city = record.city;
    out.region = record.region;
  }
  if (job.remote === null && record.remote !== null) out.remote = record.remote;
  if (job.employmentType === null && record.employmentType !== null) out.employmentType = record.employmentType;
  if (job.seniority === null && record.seniority !== null) out.seniority = record.seniority;
  if (record.salary && (job.salary === null || (job.salary.origin !== 'declared' && record.salary.origin === 'declared'))) out.salary = record.salary;
  if (record.description && (job.description === null || (isSnippet(job.description) && !isSnippet(record.description) && record.description.length > job.description.length))) {
    out.description = record.description;
  }
  if (job.applyUrl === null && record.applyUrl !== null) out.applyUrl = record.applyUrl;
  if (record.postedAt) {
    const jobT = job.postedAt ? Date.parse(job.postedAt) : Number.NaN;
    const recT = Date.parse(record.postedAt);
    if (!Number.isFinite(jobT)) out.postedAt = record.postedAt;
    else if (isDayOnly(jobT) && !isDayOnly(recT) && Math.floor(recT / DAY_MS) * DAY_MS === jobT) out.postedAt = record.postedAt;
  }
  return out;
}

function isSnippet(text: string): boolean {
  return /(?:…|\.\.\.)\s*$/.test(text);
}
