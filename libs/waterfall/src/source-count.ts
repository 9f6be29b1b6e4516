import type { Job } from '@jobs/contracts';

/** Distinct providers that saw a job (for `consensus`). */
export function sourceCount(job: Job): number {
  return new Set(job.sources.map((s) => s.provider)).size;
}
