import { CompanyDomainParamsSchema, CompanyProfileSchema, CompanyRefSchema } from './company.schema.js';

const profile = {
  company: { id: 'cmp_acme', name: 'Acme', domain: 'acme.example' },
  open_jobs_count: 12,
  is_hiring: { value: true, confidence: 0.8, basis: '12 open jobs seen by 3 sources this week' },
  hiring_pulse: { direction: 'up', open_jobs_30d_change: -3 },
  top_job_families: [{ job_family: 'engineering', open_jobs: 7 }],
  sources: [{ provider: 'own_index', open_jobs: 10, last_seen_at: '2026-10-01T12:00:00Z' }],
};

describe('CompanyRefSchema', () => {
  it('allows a null domain and requires a cmp_ id', () => {
    expect(CompanyRefSchema.safeParse({ id: 'cmp_1', name: 'X', domain: null }).success).toBe(true);
    expect(CompanyRefSchema.safeParse({ id: 'job_1', name: 'X', domain: null }).success).toBe(false);
    expect(CompanyRefSchema.safeParse({ id: 'cmp_1', name: 'X' }).success).toBe(false);
  });
});

describe('CompanyProfileSchema', () => {
  it('parses a profile', () => expect(CompanyProfileSchema.parse(profile)).toEqual(profile));
  it('keeps is_hiring.value null (unknown)', () => {
    const parsed = CompanyProfileSchema.parse({ ...profile, is_hiring: { ...profile.is_hiring, value: null } });
    expect(parsed.is_hiring.value).toBeNull();
  });
  it('rejects a confidence above 1, a wrong direction and a negative count', () => {
    expect(
      CompanyProfileSchema.safeParse({ ...profile, is_hiring: { ...profile.is_hiring, confidence: 1.2 } }).success,
    ).toBe(false);
    expect(
      CompanyProfileSchema.safeParse({ ...profile, hiring_pulse: { direction: 'sideways', open_jobs_30d_change: 0 } })
        .success,
    ).toBe(false);
    expect(CompanyProfileSchema.safeParse({ ...profile, open_jobs_count: -1 }).success).toBe(false);
    expect(
      CompanyProfileSchema.safeParse({ ...profile, sources: [{ ...profile.sources[0], provider: 'nope' }] }).success,
    ).toBe(false);
  });
});

describe('CompanyDomainParamsSchema', () => {
  it('accepts a bare domain and rejects a URL', () => {
    expect(CompanyDomainParamsSchema.parse({ domain: 'ACME.example' }).domain).toBe('acme.example');
    expect(CompanyDomainParamsSchema.safeParse({ domain: 'https://acme.example/' }).success).toBe(false);
  });
});
