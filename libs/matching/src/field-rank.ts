import {
  ProviderSlugSchema,
  RankedFieldSchema,
  type NormalizedProviderRecord,
  type RankedField,
} from '@jobs/contracts';
import type { MatchFields } from './features.js';

/**
 * How a canonical job's fields are decided: each field takes the value of its best source among
 * the records that state one, whatever order they came in.
 *
 * 1. first-hand: the own crawler (`own_index`), which reads the employer's page;
 * 2. exact: a partner whose vocabulary states the value exactly;
 * 3. lossy: a value the adapter marked lossy (`record.lossy`: a level shared by two
 *    seniorities, a snippet, a day without a time, ...) or an estimated salary.
 *
 * Sources of one rank are ordered by provider (the provider registry's slug order), then by the
 * provider's job id, so ties never depend on arrival order. A record without a value for a field
 * is no source of it. Plain TypeScript, no I/O.
 */
export const SOURCE_RANKS = { firstHand: 0, exact: 1, lossy: 2 } as const;
export type SourceRank = (typeof SOURCE_RANKS)[keyof typeof SOURCE_RANKS];

export const RANKED_FIELDS: readonly RankedField[] = RankedFieldSchema.options;

/** The source that decided one field of a canonical job. */
export interface FieldSource {
  rank: SourceRank;
  provider: string;
  providerJobId: string;
}

/** Per field, the source its value came from. */
export type FieldSources = Partial<Record<RankedField, FieldSource>>;

/**
 * What a field with a value but no recorded source (a job stored before sources were recorded)
 * counts as: an exact value ahead of every partner, so only the own crawler replaces it. Its
 * real source is unknown, and a lossy partner must not overwrite what may have been first-hand.
 */
export const UNRECORDED_SOURCE: FieldSource = { rank: SOURCE_RANKS.exact, provider: '', providerJobId: '' };

const PROVIDER_ORDER = new Map<string, number>(ProviderSlugSchema.options.map((slug, i) => [slug, i]));

/** The rank of a record's value for one field (whether or not it has one). */
export function sourceRank(
  record: Pick<NormalizedProviderRecord, 'provider' | 'lossy' | 'salary'>,
  field: RankedField,
): SourceRank {
  if (record.provider === 'own_index') return SOURCE_RANKS.firstHand;
  if (record.lossy?.includes(field)) return SOURCE_RANKS.lossy;
  // the record itself says the amount is an estimate, not what the posting declared
  if (field === 'salary' && record.salary?.origin === 'inferred') return SOURCE_RANKS.lossy;
  return SOURCE_RANKS.exact;
}

export function sourceOf(
  record: Pick<NormalizedProviderRecord, 'provider' | 'provider_job_id' | 'lossy' | 'salary'>,
  field: RankedField,
): FieldSource {
  return { rank: sourceRank(record, field), provider: record.provider, providerJobId: record.provider_job_id };
}

/** Negative when `a` is the better source, positive when `b` is, 0 for the same source. */
export function compareSources(a: FieldSource, b: FieldSource): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  const byProvider = (PROVIDER_ORDER.get(a.provider) ?? -1) - (PROVIDER_ORDER.get(b.provider) ?? -1);
  if (byProvider !== 0) return byProvider;
  return a.providerJobId < b.providerJobId ? -1 : a.providerJobId > b.providerJobId ? 1 : 0;
}

/** Whether `fields` state a value for the ranked field (a location needs one of its place parts). */
export function hasValue(fields: MatchFields, field: RankedField): boolean {
  switch (field) {
    case 'title':
      return fields.title !== '';
    case 'location':
      return fields.city !== null || fields.region !== null || fields.countryCode !== null;
    case 'location.remote':
      return fields.remote !== null;
    case 'employment_type':
      return fields.employmentType !== null;
    case 'seniority':
      return fields.seniority !== null;
    case 'job_family':
      return fields.jobFamily !== null;
    case 'salary':
      return fields.salary !== null;
    case 'description':
      return fields.description !== null && fields.description !== '';
    case 'apply_url':
      return fields.applyUrl !== null;
    case 'posted_at':
      return fields.postedAt !== null;
  }
}

/** The part of `fields` that one ranked field is made of. */
export function valuesOf(fields: MatchFields, field: RankedField): Partial<MatchFields> {
  switch (field) {
    case 'title':
      return { title: fields.title };
    case 'location':
      return { city: fields.city, region: fields.region, countryCode: fields.countryCode };
    case 'location.remote':
      return { remote: fields.remote };
    case 'employment_type':
      return { employmentType: fields.employmentType };
    case 'seniority':
      return { seniority: fields.seniority };
    case 'job_family':
      return { jobFamily: fields.jobFamily };
    case 'salary':
      return { salary: fields.salary };
    case 'description':
      return { description: fields.description };
    case 'apply_url':
      return { applyUrl: fields.applyUrl };
    case 'posted_at':
      return { postedAt: fields.postedAt };
  }
}

/** The sources a record is of a new job's fields: every field it states a value for. */
export function sourcesOfRecord(record: NormalizedProviderRecord, fields: MatchFields): FieldSources {
  const out: FieldSources = {};
  for (const field of RANKED_FIELDS) if (hasValue(fields, field)) out[field] = sourceOf(record, field);
  return out;
}

/** A job's values and the sources that decided them. */
export interface RankedJob {
  fields: MatchFields;
  sources: FieldSources;
}

/** What a record changes in a job: the values it decides now, and their sources. */
export interface RankedChanges {
  changes: Partial<MatchFields>;
  sources: FieldSources;
}

/**
 * The fields `record` (its values: `fields`) now decides in `job`: those it states a value for
 * where the job has none, or where it is a better source than the one that decided the job's
 * value. The company is no ranked field (companies are shared by jobs): a job without a domain
 * takes the first one a record brings.
 */
export function rankedMerge(job: RankedJob, record: NormalizedProviderRecord, fields: MatchFields): RankedChanges {
  const changes: Partial<MatchFields> = {};
  const sources: FieldSources = {};
  if (!job.fields.companyDomain && fields.companyDomain) {
    changes.companyDomain = fields.companyDomain;
    changes.companyName = fields.companyName;
  }
  for (const field of RANKED_FIELDS) {
    if (!hasValue(fields, field)) continue;
    const candidate = sourceOf(record, field);
    if (hasValue(job.fields, field) && compareSources(candidate, job.sources[field] ?? UNRECORDED_SOURCE) >= 0)
      continue;
    Object.assign(changes, valuesOf(fields, field));
    sources[field] = candidate;
  }
  return { changes, sources };
}

/**
 * What a known listing whose values changed at its provider (`fields`, the changed ranked
 * fields) changes in its job: a field follows it where the listing is the field's source (at
 * its new rank: the other sources' values are not kept to rank again) or a better one, or where
 * the job has no value. A listing that drops a value leaves the job's.
 */
export function listingChanges(
  job: RankedJob,
  record: NormalizedProviderRecord,
  fields: MatchFields,
  changed: readonly RankedField[],
): RankedChanges {
  const changes: Partial<MatchFields> = {};
  const sources: FieldSources = {};
  for (const field of changed) {
    if (!hasValue(fields, field)) continue;
    const candidate = sourceOf(record, field);
    const current = job.sources[field] ?? UNRECORDED_SOURCE;
    const sameListing = current.provider === candidate.provider && current.providerJobId === candidate.providerJobId;
    if (hasValue(job.fields, field) && !sameListing && compareSources(candidate, current) > 0) continue;
    Object.assign(changes, valuesOf(fields, field));
    sources[field] = candidate;
  }
  return { changes, sources };
}

/** Stored form of field sources: `{ field: [rank, provider, provider job id] }` (jsonb). */
export type StoredFieldSources = Partial<Record<RankedField, [number, string, string]>>;

export function encodeFieldSources(sources: FieldSources): StoredFieldSources {
  const out: StoredFieldSources = {};
  for (const field of RANKED_FIELDS) {
    const s = sources[field];
    if (s) out[field] = [s.rank, s.provider, s.providerJobId];
  }
  return out;
}

/** Field sources as stored; entries of another shape are skipped (their fields count as unrecorded). */
export function decodeFieldSources(stored: unknown): FieldSources {
  const out: FieldSources = {};
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return out;
  const entries = stored as Record<string, unknown>;
  for (const field of RANKED_FIELDS) {
    const s = entries[field];
    if (!Array.isArray(s) || s.length !== 3) continue;
    const [rank, provider, providerJobId] = s as unknown[];
    if ((rank === 0 || rank === 1 || rank === 2) && typeof provider === 'string' && typeof providerJobId === 'string')
      out[field] = { rank, provider, providerJobId };
  }
  return out;
}

/** A provider's name for a company domain, and how good its source is (`companyNameRank`). */
export interface CompanyNameOffer {
  domain: string;
  name: string;
  rank: number;
}

/**
 * The rank of a provider's company name, lower is better: the own crawler (the employer's own
 * page), then the partners in slug order. A company is shared by its jobs, so its name is ranked
 * apart from their fields; no adapter marks a company name lossy, so the rank is the provider's.
 */
export function companyNameRank(provider: string): number {
  return PROVIDER_ORDER.get(provider) ?? PROVIDER_ORDER.size;
}

/**
 * Whether `offer` should replace the stored name: a better-ranked source, or the same rank and a
 * lexically smaller name (one provider may spell a company two ways), so the stored name is the
 * same whatever order the records came in. A name stored unranked (`rank` null) yields to any.
 */
export function isBetterCompanyName(
  offer: Pick<CompanyNameOffer, 'name' | 'rank'>,
  stored: { name: string; rank: number | null },
): boolean {
  if (stored.rank === null) return true;
  return offer.rank < stored.rank || (offer.rank === stored.rank && offer.name < stored.name);
}

/** The best name offered for each company domain among records (those without a domain have none). */
export function bestCompanyNames(
  records: Iterable<{ provider: string; fields: Pick<MatchFields, 'companyDomain' | 'companyName'> }>,
): Map<string, CompanyNameOffer> {
  const best = new Map<string, CompanyNameOffer>();
  for (const { provider, fields } of records) {
    if (!fields.companyDomain) continue;
    const offer = { domain: fields.companyDomain, name: fields.companyName, rank: companyNameRank(provider) };
    const held = best.get(offer.domain);
    if (!held || isBetterCompanyName(offer, held)) best.set(offer.domain, offer);
  }
  return best;
}
