import { FILTER_KEYS, FILTER_LIMITS, FiltersSchema } from './filters.schema.js';

const ok = (value: unknown) => FiltersSchema.safeParse(value).success;

describe('FiltersSchema', () => {
  it('accepts every filter', () => {
    const filters = {
      title_or: ['engineer', 'developer'],
      title_not: ['intern'],
      country_code_or: ['GB', 'DE'],
      posted_within_days: 30,
      seniority_or: ['senior', 'lead'],
      employment_type_or: ['full_time'],
      remote: true,
      salary_min_gte: 50_000,
      company_domain_or: ['acme.example'],
      job_family_or: ['engineering'],
      include_closed: false,
    };
    expect(FiltersSchema.parse(filters)).toEqual(filters);
    expect(FILTER_KEYS.sort()).toEqual(Object.keys(filters).sort());
  });

  it('accepts an empty object and applies no defaults', () => expect(FiltersSchema.parse({})).toEqual({}));

  it('rejects an unknown filter with an unrecognized_keys issue naming it', () => {
    const result = FiltersSchema.safeParse({ title_or: ['x'], titel_or: ['y'] });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', keys: ['titel_or'], path: [] }),
    ]);
  });

  it.each([
    [0, false],
    [1, true],
    [365, true],
    [366, false],
    [1.5, false],
  ])('posted_within_days %p -> %p', (days, expected) => {
    expect(ok({ posted_within_days: days })).toBe(expected);
  });

  it('remote is boolean, null or omitted', () => {
    expect(ok({ remote: null })).toBe(true);
    expect(ok({ remote: false })).toBe(true);
    expect(ok({ remote: 'yes' })).toBe(false);
  });

  it('rejects wrong enum values', () => {
    expect(ok({ seniority_or: ['principal'] })).toBe(false);
    expect(ok({ employment_type_or: ['gig'] })).toBe(false);
  });

  it('rejects country codes not of ISO shape', () => {
    expect(ok({ country_code_or: ['gb'] })).toBe(false);
    expect(ok({ country_code_or: ['UK'] })).toBe(false);
    expect(ok({ country_code_or: ['GBR'] })).toBe(false);
  });

  it('bounds array lengths at both ends', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);
    expect(ok({ title_or: [] })).toBe(false);
    expect(ok({ title_or: words(FILTER_LIMITS.keywords) })).toBe(true);
    expect(ok({ title_or: words(FILTER_LIMITS.keywords + 1) })).toBe(false);
    expect(ok({ title_not: words(FILTER_LIMITS.keywords + 1) })).toBe(false);
    expect(ok({ job_family_or: words(FILTER_LIMITS.jobFamilies + 1) })).toBe(false);
    expect(ok({ title_or: ['x'.repeat(FILTER_LIMITS.keywordLength)] })).toBe(true);
    expect(ok({ title_or: ['x'.repeat(FILTER_LIMITS.keywordLength + 1)] })).toBe(false);
    expect(ok({ title_or: [''] })).toBe(false);
    const domains = (n: number) => Array.from({ length: n }, (_, i) => `c${i}.example`);
    expect(ok({ company_domain_or: domains(FILTER_LIMITS.companyDomains) })).toBe(true);
    expect(ok({ company_domain_or: domains(FILTER_LIMITS.companyDomains + 1) })).toBe(false);
    expect(ok({ seniority_or: Array(9).fill('senior') })).toBe(false);
  });

  it('lower-cases domains and rejects URLs', () => {
    expect(FiltersSchema.parse({ company_domain_or: ['ACME.example'] }).company_domain_or).toEqual(['acme.example']);
    expect(ok({ company_domain_or: ['https://acme.example'] })).toBe(false);
  });

  it('rejects a negative salary floor', () => {
    expect(ok({ salary_min_gte: 0 })).toBe(true);
    expect(ok({ salary_min_gte: -1 })).toBe(false);
    expect(ok({ salary_min_gte: '50000' })).toBe(false);
  });
});
