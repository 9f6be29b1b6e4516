import type { CanonicalJob, Company, JobSource, SqlReader } from '@jobs/db';
import type { CanonicalJobRow } from './job-view.js';

/** Columns of each table that hold a timestamp (JSON carries them as text). */
const JOB_DATES = ['postedAt', 'firstSeenAt', 'lastSeenAt', 'lastVerifiedAt', 'closedAt', 'createdAt', 'updatedAt'] as const;
const COMPANY_DATES = ['createdAt'] as const;
const SOURCE_DATES = ['firstSeenAt', 'lastSeenAt', 'unlistedAt'] as const;

/** snake_case column -> camelCase field, worked out once per column name (a page has thousands of them). */
const fieldNames = new Map<string, string>();
const camel = (key: string): string => {
  let name = fieldNames.get(key);
  if (name === undefined) fieldNames.set(key, (name = key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())));
  return name;
};

/** A row of `to_jsonb(table)` as the Prisma model it is: camelCase keys, timestamps as Dates. */
function asModel<T>(json: Record<string, unknown>, dates: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const key in json) out[camel(key)] = json[key];
  for (const key of dates) if (typeof out[key] === 'string') out[key] = new Date(out[key]);
  return out as T;
}

/**
 * Canonical jobs with their company and sources, in one statement (Prisma's `include` sends
 * three, and spends more CPU shaping their results than the database spends on them). `ids`
 * order is kept; ids not found are left out.
 */
export async function loadJobRows(db: SqlReader, ids: readonly string[]): Promise<CanonicalJobRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.$queryRaw<{ job: Record<string, unknown>; company: Record<string, unknown>; sources: Record<string, unknown>[] }[]>`
    SELECT to_jsonb(j) AS job, to_jsonb(c) AS company,
      COALESCE((SELECT jsonb_agg(to_jsonb(s)) FROM job_sources s WHERE s.canonical_job_id = j.id), '[]'::jsonb) AS sources
    FROM canonical_jobs j JOIN companies c ON c.id = j.company_id
    WHERE j.id = ANY(${[...ids]}::text[])`;
  const byId = new Map<string, CanonicalJobRow>();
  for (const row of rows) {
    const job = asModel<CanonicalJob>(row.job, JOB_DATES);
    byId.set(job.id, { ...job, company: asModel<Company>(row.company, COMPANY_DATES), sources: row.sources.map((s) => asModel<JobSource>(s, SOURCE_DATES)) });
  }
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}
