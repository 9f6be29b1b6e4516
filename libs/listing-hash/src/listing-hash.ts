/**
 * What a provider's listing says, hashed: dedupe keeps these hashes per stored source, and the
 * provider-fetcher compares a re-read listing's with the stored one (a round's sweep carries it),
 * so both must compute them alike, here.
 */
import { createHash } from 'node:crypto';
import type { NormalizedProviderRecord } from '@jobs/contracts';
import { normalizeTitle } from './title.js';

/**
 * The public Job fields whose change fires `job.updated` (what a reader of the opening would
 * call a change of it), as a provider's record states them. Not `posted_at` (a re-listing moves
 * it: `job.reposted`), nor sightings (`last_seen_at`, `last_verified_at`), `sources`, `p_real`
 * or `status`.
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

/** Key of the whole record's hash among a source's field hashes: an unchanged listing costs one hash. */
export const RECORD_HASH = '_record';

/** Canonical JSON (sorted keys) of a value, so equal values compare equal. */
export function canonicalValue(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalValue).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalValue(v)}`).join(',')}}`;
}

const short = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 12);

/**
 * Each tracked field of a record as canonical text; the title normalized, so casing or a provider's suffix never
 * counts.
 */
function canonicalFields(record: NormalizedProviderRecord): string[] {
  const values: Record<UpdateField, unknown> = {
    title: normalizeTitle(record.title),
    location: record.location,
    employment_type: record.employment_type,
    seniority: record.seniority,
    job_family: record.job_family,
    salary: record.salary,
    description: record.description,
    apply_url: record.apply_url,
  };
  return UPDATE_FIELDS.map((f) => canonicalValue(values[f]));
}

/** The whole record's hash (`_record` of `recordFieldHashes`): equal for two records that state the same. */
export function recordHash(record: NormalizedProviderRecord): string {
  return short(canonicalFields(record).join('\u0000'));
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
