import type { Job } from '@jobs/contracts';

/** Fields whose coverage the metadata reports (the spec names these and leaves the list open). */
export const COVERAGE_FIELDS = [
  'salary',
  'seniority',
  'employment_type',
  'job_family',
  'location.remote',
  'location.country_code',
  'description',
  'apply_url',
  'posted_at',
] as const;

/**
 * `metadata.field_coverage`: the fraction of the returned jobs with a non-null value, per
 * field, to three decimals (0 for an empty page). Computed on the jobs actually returned, so a
 * page cut at `max_credits` reports its own jobs.
 */
export function fieldCoverage(jobs: readonly Job[]): Record<string, number> {
  const coverage: Record<string, number> = {};
  for (const field of COVERAGE_FIELDS) {
    if (jobs.length === 0) {
      coverage[field] = 0;
      continue;
    }
    const present = jobs.filter((job) => valueAt(job, field) !== null && valueAt(job, field) !== undefined).length;
    coverage[field] = Math.round((present / jobs.length) * 1000) / 1000;
  }
  return coverage;
}

function valueAt(job: Job, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
      job,
    );
}
