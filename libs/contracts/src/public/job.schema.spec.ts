import { examples } from '../examples.js';
import { JobClosedLifecycleSchema, JobParamsSchema, JobRepostedLifecycleSchema, JobSchema } from './job.schema.js';

const job = examples.job;
const paths = (result: { error?: { issues: { path: PropertyKey[] }[] } }) => result.error?.issues.map((i) => i.path);

describe('JobSchema', () => {
  it('parses a full job unchanged', () => expect(JobSchema.parse(job())).toEqual(job()));

  it('accepts null for every nullable field (null = unknown)', () => {
    const unknown = {
      ...job(),
      location: { city: null, region: null, country_code: null, remote: null },
      employment_type: null,
      seniority: null,
      job_family: null,
      salary: null,
      description: null,
      apply_url: null,
      posted_at: null,
      last_verified_at: null,
    };
    expect(JobSchema.safeParse(unknown).success).toBe(true);
  });

  it('requires every field of a full job (omitted != null)', () => {
    for (const field of Object.keys(job())) {
      const partial: Record<string, unknown> = job();
      delete partial[field];
      expect([field, JobSchema.safeParse(partial).success]).toEqual([field, false]);
    }
  });

  it('rejects unknown fields', () => {
    expect(JobSchema.safeParse({ ...job(), world_job_id: 'w1' }).success).toBe(false);
  });

  it('accepts a closed job with a reason and ties closed_reason to status', () => {
    expect(JobSchema.safeParse({ ...job(), status: 'closed', closed_reason: 'filled' }).success).toBe(true);
    expect(paths(JobSchema.safeParse({ ...job(), status: 'open', closed_reason: 'filled' }))).toEqual([
      ['closed_reason'],
    ]);
    expect(paths(JobSchema.safeParse({ ...job(), status: 'closed', closed_reason: null }))).toEqual([
      ['closed_reason'],
    ]);
  });

  it.each([
    ['id', 'cmp_1'],
    ['employment_type', 'freelance'],
    ['seniority', 'principal'],
    ['status', 'paused'],
    ['closed_reason', 'deleted'],
    ['repost_count', -1],
    ['repost_count', 1.5],
    ['p_real', 1.01],
    ['p_real', -0.1],
    ['sources', []],
    ['apply_url', 'not a url'],
    ['posted_at', '2026-10-01'],
  ])('rejects %s = %p', (field, value) => {
    expect(JobSchema.safeParse({ ...job(), [field]: value }).success).toBe(false);
  });

  it('checks location, salary and source shapes', () => {
    expect(JobSchema.safeParse({ ...job(), location: { ...job().location, country_code: 'UK' } }).success).toBe(false);
    const salary = { min: 1, max: 2, currency: 'EUR', period: 'year', origin: 'declared' };
    expect(JobSchema.safeParse({ ...job(), salary: { ...salary, origin: 'guessed' } }).success).toBe(false);
    expect(JobSchema.safeParse({ ...job(), salary: { ...salary, period: 'week' } }).success).toBe(false);
    expect(JobSchema.safeParse({ ...job(), salary: { ...salary, currency: 'pounds' } }).success).toBe(false);
    expect(JobSchema.safeParse({ ...job(), salary: { ...salary, min: null, max: null } }).success).toBe(true);
    const { origin: _origin, ...withoutOrigin } = salary;
    expect(JobSchema.safeParse({ ...job(), salary: withoutOrigin }).success).toBe(false);
    const [source] = job().sources;
    expect(JobSchema.safeParse({ ...job(), sources: [{ ...source, provider: 'provider_z' }] }).success).toBe(false);
    expect(JobSchema.safeParse({ ...job(), license: { display: true } }).success).toBe(false);
  });
});

describe('lifecycle-only jobs', () => {
  const { id, title, company } = job();

  it('job.closed carries id, title, company, status closed and closed_reason', () => {
    const closed = { id, title, company, status: 'closed', closed_reason: 'expired' };
    expect(JobClosedLifecycleSchema.parse(closed)).toEqual(closed);
    expect(JobClosedLifecycleSchema.safeParse({ ...closed, status: 'open' }).success).toBe(false);
    expect(JobClosedLifecycleSchema.safeParse({ ...closed, closed_reason: null }).success).toBe(false);
    expect(JobClosedLifecycleSchema.safeParse({ ...closed, salary: null }).success).toBe(false);
  });

  it('job.reposted carries repost_count of at least 1 and no other field', () => {
    const reposted = { id, title, company, status: 'open', repost_count: 2 };
    expect(JobRepostedLifecycleSchema.parse(reposted)).toEqual(reposted);
    expect(JobRepostedLifecycleSchema.safeParse({ ...reposted, repost_count: 0 }).success).toBe(false);
    expect(JobRepostedLifecycleSchema.safeParse({ ...reposted, closed_reason: null }).success).toBe(false);
  });
});

describe('JobParamsSchema', () => {
  it('requires a job_ id', () => {
    expect(JobParamsSchema.safeParse({ id: 'job_1' }).success).toBe(true);
    expect(JobParamsSchema.safeParse({ id: 'srch_1' }).success).toBe(false);
  });
});
