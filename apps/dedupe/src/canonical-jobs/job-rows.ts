import type { SqlReader } from '@jobs/db';
import type { CanonicalJobRow, JobSourceView } from './job-view.js';

/** A source as the statement returns it: `[provider, provider_job_id, url, first seen ms, last seen ms, fields]`. */
type SourceTuple = [JobSourceView['provider'], string, string | null, number, number, string[] | null];

/**
 * Canonical jobs with their company and sources, in one statement, as the public view needs them
 * (`toJob`). The columns are named in the statement, already camelCase, and each source is a
 * small JSON array with its times in epoch milliseconds: `to_jsonb` of the whole rows (a job's
 * search and blocking columns, a source's field hashes) cost the database three times the
 * statement's work and the service a JSON round of every column. Prisma's `include` would send three statements. `ids`
 * order is
 * kept; ids not found are left out.
 */
export async function loadJobRows(db: SqlReader, ids: readonly string[]): Promise<CanonicalJobRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.$queryRaw<
    Array<
      Omit<CanonicalJobRow, 'company' | 'sources'> & {
        companyName: string;
        companyDomain: string | null;
        sources: SourceTuple[] | null;
      }
    >
  >`
    SELECT j.id, j.company_id AS "companyId", j.title, j.city, j.region, j.country_code AS "countryCode", j.remote,
      j.employment_type AS "employmentType", j.seniority, j.job_family AS "jobFamily",
      j.salary_min AS "salaryMin", j.salary_max AS "salaryMax", j.salary_currency AS "salaryCurrency",
      j.salary_period AS "salaryPeriod", j.salary_origin AS "salaryOrigin", j.description, j.apply_url AS "applyUrl",
      j.posted_at AS "postedAt", j.first_seen_at AS "firstSeenAt", j.last_seen_at AS "lastSeenAt",
      j.last_verified_at AS "lastVerifiedAt", j.status::text AS status, j.closed_reason AS "closedReason",
      j.repost_count AS "repostCount", j.p_real AS "pReal", c.name AS "companyName", c.domain AS "companyDomain",
      (SELECT json_agg(json_build_array(s.provider, s.provider_job_id, s.url,
          (extract(epoch FROM s.first_seen_at) * 1000)::bigint, (extract(epoch FROM s.last_seen_at) * 1000)::bigint,
            s.fields))
        FROM job_sources s WHERE s.canonical_job_id = j.id) AS sources
    FROM canonical_jobs j JOIN companies c ON c.id = j.company_id
    WHERE j.id = ANY(${[...ids]}::text[])`;
  const byId = new Map<string, CanonicalJobRow>();
  for (const { companyName, companyDomain, sources, ...job } of rows) {
    byId.set(job.id, {
      ...job,
      company: { id: job.companyId, name: companyName, domain: companyDomain },
      sources: (sources ?? []).map(([provider, providerJobId, url, firstSeenMs, lastSeenMs, fields]) => ({
        provider,
        providerJobId,
        url,
        firstSeenAt: new Date(firstSeenMs),
        lastSeenAt: new Date(lastSeenMs),
        fields: fields ?? [],
      })),
    });
  }
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}
