import type { Job } from '@jobs/contracts';
import type { CanonicalJob, Company, JobSource } from '@jobs/db';

/** A source as the view shows it. */
export type JobSourceView = Pick<
  JobSource,
  'provider' | 'providerJobId' | 'url' | 'firstSeenAt' | 'lastSeenAt' | 'fields'
>;

/** A stored canonical job with what its public view reads (`loadJobRows`), and nothing else. */
export type CanonicalJobRow = Pick<
  CanonicalJob,
  | 'id'
  | 'companyId'
  | 'title'
  | 'city'
  | 'region'
  | 'countryCode'
  | 'remote'
  | 'employmentType'
  | 'seniority'
  | 'jobFamily'
  | 'salaryMin'
  | 'salaryMax'
  | 'salaryCurrency'
  | 'salaryPeriod'
  | 'salaryOrigin'
  | 'description'
  | 'applyUrl'
  | 'postedAt'
  | 'firstSeenAt'
  | 'lastSeenAt'
  | 'lastVerifiedAt'
  | 'status'
  | 'closedReason'
  | 'repostCount'
  | 'pReal'
> & { company: Pick<Company, 'id' | 'name' | 'domain'>; sources: JobSourceView[] };

/** A stored job's salary as the public Job and the merge's field view carry it, or null without currency and period. */
export function storedSalary(
  row: Pick<CanonicalJobRow, 'salaryMin' | 'salaryMax' | 'salaryCurrency' | 'salaryPeriod' | 'salaryOrigin'>,
): Job['salary'] {
  return row.salaryCurrency && row.salaryPeriod
    ? {
        min: row.salaryMin,
        max: row.salaryMax,
        currency: row.salaryCurrency,
        period: row.salaryPeriod as 'year' | 'month' | 'hour',
        origin: (row.salaryOrigin ?? 'declared') as 'declared' | 'inferred',
      }
    : null;
}

/** The public Job of a stored canonical job. */
export function toJob(row: CanonicalJobRow): Job {
  return {
    id: row.id,
    title: row.title,
    company: { id: row.company.id, name: row.company.name, domain: row.company.domain },
    location: { city: row.city, region: row.region, country_code: row.countryCode, remote: row.remote },
    employment_type: row.employmentType as Job['employment_type'],
    seniority: row.seniority as Job['seniority'],
    job_family: row.jobFamily,
    salary: storedSalary(row),
    description: row.description,
    apply_url: row.applyUrl,
    posted_at: row.postedAt?.toISOString() ?? null,
    first_seen_at: row.firstSeenAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
    last_verified_at: row.lastVerifiedAt?.toISOString() ?? null,
    status: row.status,
    closed_reason: row.closedReason as Job['closed_reason'],
    repost_count: row.repostCount,
    p_real: row.pReal,
    sources: row.sources
      .slice()
      .sort((a, b) => a.firstSeenAt.getTime() - b.firstSeenAt.getTime())
      .map((s) => ({
        provider: s.provider,
        provider_job_id: s.providerJobId,
        url: s.url,
        first_seen_at: s.firstSeenAt.toISOString(),
        last_seen_at: s.lastSeenAt.toISOString(),
        fields: s.fields,
      })),
    license: { display: true, resale: false },
  };
}

/** Corroboration: one source is plausible, each independent source makes it likelier real. */
export function pRealFor(sourceCount: number): number {
  return Math.round(Math.min(0.99, 1 - 0.4 * Math.pow(0.5, Math.max(0, sourceCount - 1))) * 100) / 100;
}
