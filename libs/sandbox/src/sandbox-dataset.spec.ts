import { JobSchema, PROVIDER_SLUGS } from '@jobs/contracts';
import { findSandboxJob, SANDBOX_COMPANIES, SANDBOX_JOBS } from './sandbox-dataset.js';

describe('the sandbox dataset', () => {
  it('holds about forty jobs that each parse as a full Job', () => {
    expect(SANDBOX_JOBS.length).toBe(40);
    for (const job of SANDBOX_JOBS) expect(JobSchema.safeParse(job)).toEqual({ success: true, data: job });
  });

  it('uses unique job ids with the job_ prefix', () => {
    expect(new Set(SANDBOX_JOBS.map((job) => job.id)).size).toBe(SANDBOX_JOBS.length);
  });

  it('names only fictional companies on reserved .example domains, and links only there', () => {
    for (const company of Object.values(SANDBOX_COMPANIES))
      expect(company.domain === null || company.domain.endsWith('.example')).toBe(true);
    const urls = SANDBOX_JOBS.flatMap((job) => [job.apply_url, ...job.sources.map((s) => s.url)]).filter(
      (u): u is string => u !== null,
    );
    expect(urls.length).toBeGreaterThan(40);
    for (const url of urls) expect(new URL(url).hostname).toMatch(/\.example$/);
    expect(SANDBOX_JOBS.some((job) => job.company.domain === null)).toBe(true);
  });

  it('shows several providers per job, every provider, several currencies and periods', () => {
    expect(new Set(SANDBOX_JOBS.flatMap((job) => job.sources.map((s) => s.provider)))).toEqual(new Set(PROVIDER_SLUGS));
    expect(SANDBOX_JOBS.some((job) => job.sources.length === PROVIDER_SLUGS.length)).toBe(true);
    expect(SANDBOX_JOBS.filter((job) => job.sources.length > 1).length).toBeGreaterThan(20);
    const currencies = new Set(SANDBOX_JOBS.map((job) => job.salary?.currency).filter(Boolean));
    expect(currencies.size).toBeGreaterThanOrEqual(5);
    expect(new Set(SANDBOX_JOBS.map((job) => job.salary?.period).filter(Boolean))).toEqual(
      new Set(['year', 'month', 'hour']),
    );
    expect(new Set(SANDBOX_JOBS.map((job) => job.salary?.origin).filter(Boolean))).toEqual(
      new Set(['declared', 'inferred']),
    );
    expect(SANDBOX_JOBS.some((job) => job.salary === null)).toBe(true);
  });

  it('has closed jobs with a reason and reposted jobs', () => {
    const closed = SANDBOX_JOBS.filter((job) => job.status === 'closed');
    expect(closed.length).toBeGreaterThanOrEqual(1);
    for (const job of closed) expect(job.closed_reason).not.toBeNull();
    expect(SANDBOX_JOBS.some((job) => job.repost_count > 0)).toBe(true);
  });

  it("keeps every job's first and last sighting consistent with its sources", () => {
    for (const job of SANDBOX_JOBS) {
      const firsts = job.sources.map((s) => s.first_seen_at).sort();
      const lasts = job.sources.map((s) => s.last_seen_at).sort();
      expect(job.first_seen_at).toBe(firsts[0]);
      expect(job.last_seen_at).toBe(lasts[lasts.length - 1]);
      for (const source of job.sources) expect(source.first_seen_at <= source.last_seen_at).toBe(true);
    }
  });

  it('is sorted newest first sighting first', () => {
    const order = SANDBOX_JOBS.map((job) => job.first_seen_at);
    expect(order).toEqual([...order].sort().reverse());
  });
});

describe('findSandboxJob', () => {
  it('finds a sandbox job by id and nothing else', () => {
    const job = SANDBOX_JOBS[3]!;
    expect(findSandboxJob(job.id)).toBe(job);
    expect(findSandboxJob('job_not_in_the_sandbox')).toBeUndefined();
  });
});
