import type { WorldJob } from '@jobs/sim-world';

/**
 * A world opening as the control API shows it (snake_case, like the public Job). The own crawler's
 * listing (sim-world's own-index view) looks alike but stays apart: it is a provider's wire format,
 * free to differ from the operator's view.
 */
export function toWorldJobDto(job: WorldJob): Record<string, unknown> {
  return {
    world_job_id: job.id,
    title: job.title,
    company: { domain: job.companyDomain, name: job.companyName },
    location: {
      city: job.location.city,
      region: job.location.region,
      country_code: job.location.countryCode,
      remote: job.location.remote,
    },
    employment_type: job.employmentType,
    seniority: job.seniority,
    job_family: job.jobFamily,
    salary: job.salary,
    description: job.description,
    apply_url: job.applyUrl,
    posted_at: new Date(job.postedAt).toISOString(),
    status: job.status,
    closed_reason: job.closedReason,
    closed_at: job.closedAt === null ? null : new Date(job.closedAt).toISOString(),
    repost_count: job.repostCount,
    providers: job.providers,
    added: job.added,
  };
}
