import type { Job } from './api.js';
import { Row, type Column } from './table.js';

/** A list of jobs (the sandbox's, an async search's): what a job is, where, and who saw it. */
export const JOB_COLUMNS: Column[] = ['Title', 'Company', 'Location', 'Sources'];

export function JobRow({ job }: { job: Job }) {
  const where = [job.location.city, job.location.country_code, job.location.remote ? 'remote' : null];
  return (
    <Row
      data-job-id={job.id}
      cells={[
        job.title,
        job.company.name,
        where.filter(Boolean).join(', ') || '—',
        job.sources.map((s) => s.provider).join(', '),
      ]}
    />
  );
}
