/**
 * Lifecycle decisions of canonical jobs (plain TypeScript, no Nest or Prisma): which fields
 * fire `job.updated`, which changes one merge publishes, and the stable change ids.
 */
import type { Job, JobChange } from '@jobs/contracts';
import { canonicalValue as canonical, UPDATE_FIELDS, type UpdateField } from '@jobs/listing-hash';

export { listingChangedFields, recordFieldHashes, UPDATE_FIELDS, type UpdateField } from '@jobs/listing-hash';

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
