import {
  AdminWorldCompanySchema,
  AdminWorldJobCloseRequestSchema,
  AdminWorldJobCreateRequestSchema,
  AdminWorldJobPatchRequestSchema,
  AdminWorldJobRepostRequestSchema,
} from './world.schema.js';

const job = { company_domain: 'acme.example', title: 'Unique Title 42', providers: ['own_index', 'provider_a'] };

describe('admin world', () => {
  it('creates a company', () => {
    expect(AdminWorldCompanySchema.parse({ domain: 'ACME.example', name: 'Acme' })).toEqual({
      domain: 'acme.example',
      name: 'Acme',
    });
    expect(AdminWorldCompanySchema.safeParse({ domain: 'acme.example' }).success).toBe(false);
  });

  it('creates a job with the minimum and with every field', () => {
    expect(AdminWorldJobCreateRequestSchema.parse(job)).toEqual(job);
    const full = AdminWorldJobCreateRequestSchema.parse({
      ...job,
      location: { country_code: 'GB', remote: true },
      employment_type: 'contract',
      seniority: 'lead',
      job_family: 'engineering',
      salary: { min: 1, max: 2, currency: 'GBP', period: 'hour' },
      description: 'x',
      apply_url: 'https://acme.example/apply',
      posted_at: '2026-10-01T00:00:00Z',
    });
    expect(full.salary?.origin).toBe('declared');
  });

  it('rejects a job without providers, with repeated or unknown providers, or with bad enums', () => {
    expect(AdminWorldJobCreateRequestSchema.safeParse({ ...job, providers: [] }).success).toBe(false);
    expect(
      AdminWorldJobCreateRequestSchema.safeParse({ ...job, providers: ['provider_a', 'provider_a'] }).success,
    ).toBe(false);
    expect(AdminWorldJobCreateRequestSchema.safeParse({ ...job, providers: ['provider_q'] }).success).toBe(false);
    expect(AdminWorldJobCreateRequestSchema.safeParse({ ...job, seniority: 'guru' }).success).toBe(false);
    expect(AdminWorldJobCreateRequestSchema.safeParse({ ...job, location: { country_code: 'UK' } }).success).toBe(
      false,
    );
    const { title: _t, ...noTitle } = job;
    expect(AdminWorldJobCreateRequestSchema.safeParse(noTitle).success).toBe(false);
  });

  it('patches any non-empty subset', () => {
    expect(AdminWorldJobPatchRequestSchema.parse({ title: 'New' })).toEqual({ title: 'New' });
    expect(AdminWorldJobPatchRequestSchema.safeParse({}).success).toBe(false);
    expect(AdminWorldJobPatchRequestSchema.safeParse({ status: 'closed' }).success).toBe(false);
  });

  it('closes with filled, expired or removed only', () => {
    expect(AdminWorldJobCloseRequestSchema.safeParse({ reason: 'filled' }).success).toBe(true);
    expect(AdminWorldJobCloseRequestSchema.safeParse({ reason: 'unknown' }).success).toBe(false);
    expect(AdminWorldJobCloseRequestSchema.safeParse({}).success).toBe(false);
  });

  it('reposts with no body or an empty one', () => {
    expect(AdminWorldJobRepostRequestSchema.safeParse(undefined).success).toBe(true);
    expect(AdminWorldJobRepostRequestSchema.safeParse({}).success).toBe(true);
    expect(AdminWorldJobRepostRequestSchema.safeParse({ x: 1 }).success).toBe(false);
  });
});
