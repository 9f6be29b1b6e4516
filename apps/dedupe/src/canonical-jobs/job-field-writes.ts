import type { RankedField } from '@jobs/contracts';
import { Prisma } from '@jobs/db';
import { titleSearchText } from '@jobs/job-filters';
import {
  RANKED_FIELDS,
  encodeFieldSources,
  normalizeTitle,
  valuesOf,
  type FieldSources,
  type MatchFields,
} from '@jobs/matching';

/** A job's ranked values and the source of each. */
export interface RankedState {
  fields: MatchFields;
  sources: FieldSources;
}

/** What moved between two states of one job: fields whose value changed, and every source that changed. */
export interface FieldDiff {
  values: RankedField[];
  sources: FieldSources;
}

/** Values compared as stored: times by instant, objects by their sorted keys. */
function sameValue(field: RankedField, a: MatchFields, b: MatchFields): boolean {
  if (field === 'posted_at')
    return (
      (a.postedAt === null ? null : Date.parse(a.postedAt)) === (b.postedAt === null ? null : Date.parse(b.postedAt))
    );
  return canonical(valuesOf(a, field)) === canonical(valuesOf(b, field));
}

function canonical(value: unknown): string {
  if (value === null || value === undefined || typeof value !== 'object') return JSON.stringify(value ?? null);
  const entries = Object.entries(value as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : 1));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

export function fieldDiff(before: RankedState, after: RankedState): FieldDiff {
  const values = RANKED_FIELDS.filter((field) => !sameValue(field, before.fields, after.fields));
  const sources: FieldSources = {};
  for (const field of RANKED_FIELDS) {
    const a = before.sources[field];
    const b = after.sources[field];
    if (b && (!a || a.rank !== b.rank || a.provider !== b.provider || a.providerJobId !== b.providerJobId))
      sources[field] = b;
  }
  return { values, sources };
}

export const isEmptyDiff = (diff: FieldDiff): boolean =>
  diff.values.length === 0 && Object.keys(diff.sources).length === 0;

/** A stored job's changed fields, to be written with the others of its batch in one statement. */
export interface FieldWrite {
  id: string;
  diff: FieldDiff;
  fields: MatchFields;
  /** the job's new company (it learnt its domain), else null */
  companyId: string | null;
  /**
   * its sighting, when records of the batch met it (null: a known listing's change only, whose sighting is written
   * apart)
   */
  sighting: { lastSeenAt: Date; pReal: number; lastVerifiedAt: Date | null } | null;
}

/** The columns of each ranked field. */
const COLUMNS: Record<RankedField, readonly string[]> = {
  title: ['title', 'normalized_title', 'title_search'],
  location: ['city', 'region', 'country_code'],
  'location.remote': ['remote'],
  employment_type: ['employment_type'],
  seniority: ['seniority'],
  job_family: ['job_family'],
  salary: ['salary_min', 'salary_max', 'salary_currency', 'salary_period', 'salary_origin'],
  description: ['description'],
  apply_url: ['apply_url'],
  posted_at: ['posted_at'],
};

const at = (d: Date | null | undefined): string | null => d?.toISOString() ?? null;

/**
 * One statement for the field changes of many stored jobs: each column is set only where its
 * field changed (`v.changed` lists them as `|field|`), the sources are merged into the stored
 * ones, sightings only move forward. In id order, the order every writer of these rows locks them.
 */
export function fieldWritesStatement(writes: readonly FieldWrite[]): Prisma.Sql {
  const rows = [...writes].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const set = RANKED_FIELDS.flatMap((field) =>
    COLUMNS[field]!.map(
      (column) => `${column} = CASE WHEN strpos(v.changed, '|${field}|') > 0 THEN v.${column} ELSE j.${column} END`,
    ),
  );
  const f = (pick: (w: FieldWrite) => unknown) => rows.map(pick);
  return Prisma.sql`
    UPDATE canonical_jobs AS j
    SET ${Prisma.raw(set.join(',\n      '))},
      company_id = COALESCE(v.company_id, j.company_id),
      field_sources = j.field_sources || v.field_sources,
      last_seen_at = GREATEST(j.last_seen_at, v.last_seen_at),
      p_real = COALESCE(v.p_real, j.p_real),
      last_verified_at = GREATEST(j.last_verified_at, v.last_verified_at),
      updated_at = now()
    FROM unnest(
      ${f((w) => w.id)}::text[],
      ${f((w) => `|${w.diff.values.join('|')}|`)}::text[],
      ${f((w) => w.companyId)}::text[],
      ${f((w) => w.fields.title)}::text[],
      ${f((w) => normalizeTitle(w.fields.title))}::text[],
      ${f((w) => titleSearchText(w.fields.title))}::text[],
      ${f((w) => w.fields.city)}::text[],
      ${f((w) => w.fields.region)}::text[],
      ${f((w) => w.fields.countryCode)}::text[],
      ${f((w) => w.fields.remote)}::boolean[],
      ${f((w) => w.fields.employmentType)}::text[],
      ${f((w) => w.fields.seniority)}::text[],
      ${f((w) => w.fields.jobFamily)}::text[],
      ${f((w) => w.fields.salary?.min ?? null)}::float8[],
      ${f((w) => w.fields.salary?.max ?? null)}::float8[],
      ${f((w) => w.fields.salary?.currency ?? null)}::text[],
      ${f((w) => w.fields.salary?.period ?? null)}::text[],
      ${f((w) => w.fields.salary?.origin ?? null)}::text[],
      ${f((w) => w.fields.description)}::text[],
      ${f((w) => w.fields.applyUrl)}::text[],
      ${f((w) => w.fields.postedAt)}::text[]::timestamptz[],
      ${f((w) => JSON.stringify(encodeFieldSources(w.diff.sources)))}::text[]::jsonb[],
      ${f((w) => at(w.sighting?.lastSeenAt))}::text[]::timestamptz[],
      ${f((w) => w.sighting?.pReal ?? null)}::float8[],
      ${f((w) => at(w.sighting?.lastVerifiedAt))}::text[]::timestamptz[]
    ) AS v(id, changed, company_id, title, normalized_title, title_search, city, region, country_code, remote,
      employment_type, seniority, job_family, salary_min, salary_max, salary_currency, salary_period, salary_origin,
      description, apply_url, posted_at, field_sources, last_seen_at, p_real, last_verified_at)
    WHERE j.id = v.id`;
}

/** The same changes as a Prisma update of one job (for the rare writes that also re-list it). */
export function fieldUpdateData(
  write: FieldWrite,
  storedSources: FieldSources,
): Prisma.CanonicalJobUncheckedUpdateInput {
  const f = write.fields;
  const data: Prisma.CanonicalJobUncheckedUpdateInput = {};
  for (const field of write.diff.values) {
    if (field === 'title')
      Object.assign(data, {
        title: f.title,
        normalizedTitle: normalizeTitle(f.title),
        titleSearch: titleSearchText(f.title),
      });
    if (field === 'location') Object.assign(data, { city: f.city, region: f.region, countryCode: f.countryCode });
    if (field === 'location.remote') data.remote = f.remote;
    if (field === 'employment_type') data.employmentType = f.employmentType;
    if (field === 'seniority') data.seniority = f.seniority;
    if (field === 'job_family') data.jobFamily = f.jobFamily;
    if (field === 'salary')
      Object.assign(data, {
        salaryMin: f.salary?.min ?? null,
        salaryMax: f.salary?.max ?? null,
        salaryCurrency: f.salary?.currency ?? null,
        salaryPeriod: f.salary?.period ?? null,
        salaryOrigin: f.salary?.origin ?? null,
      });
    if (field === 'description') data.description = f.description;
    if (field === 'apply_url') data.applyUrl = f.applyUrl;
    if (field === 'posted_at') data.postedAt = f.postedAt ? new Date(f.postedAt) : null;
  }
  if (Object.keys(write.diff.sources).length > 0)
    data.fieldSources = encodeFieldSources({ ...storedSources, ...write.diff.sources });
  if (write.companyId) data.companyId = write.companyId;
  if (write.sighting) {
    data.lastSeenAt = write.sighting.lastSeenAt;
    data.pReal = write.sighting.pReal;
    if (write.sighting.lastVerifiedAt) data.lastVerifiedAt = write.sighting.lastVerifiedAt;
  }
  return data;
}
