/**
 * Lifecycle decisions of canonical jobs (plain TypeScript, no Nest or Prisma): which fields
 * fire `job.updated`, which changes one merge publishes, and the stable change ids.
 */
import { hash } from 'node:crypto';
import type { Job, JobChange, JobScopeFields, NormalizedProviderRecord } from '@jobs/contracts';
import { normalizeTitle } from '@jobs/matching';

/**
 * The public Job fields whose change fires `job.updated` (what a reader of the opening would
 * call a change of it), as a provider's record states them. Not `posted_at` (a re-listing moves
 * it: `job.reposted`), nor sightings (`last_seen_at`, `last_verified_at`), `sources`, `p_real`
 * or `status`; the company once it becomes known or is renamed (`ChangedField`).
 */
export const UPDATE_FIELDS = [
  'title',
  'location',
  'employment_type',
  'seniority',
  'job_family',
  'salary',
  'description',
  'apply_url',
] as const;
export type UpdateField = (typeof UPDATE_FIELDS)[number];

type FieldValues = Record<UpdateField, unknown>;

function valuesOfJob(job: Pick<Job, UpdateField>): FieldValues {
  return {
    title: job.title,
    location: job.location,
    employment_type: job.employment_type,
    seniority: job.seniority,
    job_family: job.job_family,
    salary: job.salary,
    description: job.description,
    apply_url: job.apply_url,
  };
}

/**
 * Canonical JSON (sorted keys) of a value, so equal values compare equal. Every record a search or
 * a refresh sees goes through it (an unchanged listing costs this and one hash), so it builds the
 * text in one pass, without arrays of entries. Stored hashes depend on its exact output.
 */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += (i > 0 ? ',' : '') + canonical(value[i]);
    return `${text}]`;
  }
  const object = value as Record<string, unknown>;
  let text = '{';
  let first = true;
  for (const key of Object.keys(object).sort()) {
    const item = object[key];
    if (item === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${canonical(item)}`;
    first = false;
  }
  return `${text}}`;
}

/**
 * Changed fields beyond `UPDATE_FIELDS`:
 * - `company`: the job reached a known company (it was listed under a company without a domain,
 *   and a provider naming the domain joined it). For that company's watches the job is a new
 *   opening there (the watch matcher sends `job.opened`);
 * - `company.name`: its company took a better-ranked name (libs/matching `isBetterCompanyName`).
 */
export type ChangedField = UpdateField | 'company' | 'company.name';

/**
 * The fields whose value differs between two views of one job: `UPDATE_FIELDS` in that order, then `company` or
 * `company.name`.
 */
export function changedJobFields(
  before: Pick<Job, UpdateField | 'company'>,
  after: Pick<Job, UpdateField | 'company'>,
): ChangedField[] {
  const a = valuesOfJob(before);
  const b = valuesOfJob(after);
  const fields: ChangedField[] = UPDATE_FIELDS.filter((field) => canonical(a[field]) !== canonical(b[field]));
  if (before.company.domain === null && after.company.domain !== null) fields.push('company');
  else if (
    after.company.domain !== null &&
    before.company.domain === after.company.domain &&
    before.company.name !== after.company.name
  )
    fields.push('company.name');
  return fields;
}

/** The values before a change of the changed fields that filters read (`previous` of an update). */
export function scopeFieldsBefore(before: Job, changed: readonly ChangedField[]): JobScopeFields {
  const previous: JobScopeFields = {};
  for (const field of changed) {
    if (field === 'company' || field === 'company.name') previous.company = before.company;
    else if (field === 'title') previous.title = before.title;
    else if (field === 'location') previous.location = before.location;
    else if (field === 'employment_type') previous.employment_type = before.employment_type;
    else if (field === 'seniority') previous.seniority = before.seniority;
    else if (field === 'job_family') previous.job_family = before.job_family;
    else if (field === 'salary') previous.salary = before.salary;
  }
  return previous;
}

const short = (text: string) => hash('sha256', text, 'base64url').slice(0, 12);

/** Key of the whole record's hash among a source's field hashes: an unchanged listing costs one hash. */
const RECORD_HASH = '_record';

/**
 * Each tracked field of a record as canonical text; the title normalized, so casing or a provider's suffix never
 * counts.
 */
function canonicalFields(record: NormalizedProviderRecord): string[] {
  const values: FieldValues = {
    title: normalizeTitle(record.title),
    location: record.location,
    employment_type: record.employment_type,
    seniority: record.seniority,
    job_family: record.job_family,
    salary: record.salary,
    description: record.description,
    apply_url: record.apply_url,
  };
  return UPDATE_FIELDS.map((f) => canonical(values[f]));
}

/**
 * What one provider's record says about each tracked field, as short hashes (stored per
 * source), and about all of them at once (`_record`).
 */
export function recordFieldHashes(record: NormalizedProviderRecord): Record<UpdateField | typeof RECORD_HASH, string> {
  const fields = canonicalFields(record);
  return {
    ...(Object.fromEntries(UPDATE_FIELDS.map((f, i) => [f, short(fields[i]!)])) as Record<UpdateField, string>),
    [RECORD_HASH]: short(fields.join('\u0000')),
  };
}

/**
 * The fields a known listing changed since its provider last showed it: the hash moved and the
 * new value is known (a provider dropping a value never erases the job's). A source stored
 * before hashes were kept (empty) changes nothing. Nearly every sighting is of an unchanged
 * listing: the whole record's hash settles it.
 */
export function listingChangedFields(
  stored: Readonly<Record<string, unknown>>,
  record: NormalizedProviderRecord,
): UpdateField[] {
  const fields = canonicalFields(record);
  if (typeof stored[RECORD_HASH] === 'string' && stored[RECORD_HASH] === short(fields.join('\u0000'))) return [];
  return UPDATE_FIELDS.filter(
    (field, i) => typeof stored[field] === 'string' && stored[field] !== short(fields[i]!) && !isEmpty(record, field),
  );
}

function isEmpty(record: NormalizedProviderRecord, field: UpdateField): boolean {
  if (field === 'location')
    return (
      record.location.city === null &&
      record.location.region === null &&
      record.location.country_code === null &&
      record.location.remote === null
    );
  if (field === 'title') return false;
  return record[field] === null;
}

/** What happened to one canonical job in one transaction. */
export interface JobHappenings {
  /** the job was made in this transaction */
  created: boolean;
  /** re-listed at least once in this transaction */
  reposted: boolean;
  /** closed in this transaction (it was open before) */
  closed: boolean;
  /** tracked fields that differ between the job before and after */
  changedFields: readonly ChangedField[];
}

/**
 * The changes to publish, in order. A job made in the transaction is `opened` only (whatever
 * else happened to it there: the full job carries it). A re-listing is `reposted`, followed by
 * `updated` when tracked fields changed too. A closing is `closed`, after an `updated` of the
 * same transaction. A job closed and re-listed in one transaction ends open: `reposted` only.
 */
export function decideChanges(h: JobHappenings): JobChange[] {
  if (h.created) return ['opened'];
  const out: JobChange[] = [];
  if (h.reposted) out.push('reposted');
  if (h.changedFields.length > 0) out.push('updated');
  if (h.closed && !h.reposted) out.push('closed');
  return out;
}

/** `chg_<job id>_<n>`: the job's n-th published change; unique, and the same on a redelivery. */
export function jobChangeId(jobId: string, version: number): string {
  return `chg_${jobId}_${version}`;
}

/** `chg_<company id>_h<n>`: the company's n-th hiring change. */
export function hiringChangeId(companyId: string, version: number): string {
  return `chg_${companyId}_h${version}`;
}
