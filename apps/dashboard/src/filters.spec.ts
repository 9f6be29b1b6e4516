import { EmploymentTypeSchema, FILTER_KEYS, FiltersSchema, SenioritySchema } from '@jobs/contracts';
import {
  describeFilters,
  EMPLOYMENT_TYPES,
  FILTER_FIELDS,
  narrowsJobs,
  NO_FILTERS,
  SENIORITIES,
  toFilters,
} from './filters.js';

describe('the filters form', () => {
  it('has a field for every filter of the API, with its choices', () => {
    expect(Object.keys(NO_FILTERS).sort()).toEqual([...FILTER_KEYS].sort());
    expect(Object.keys(FILTER_FIELDS).sort()).toEqual(FILTER_KEYS.map((key) => `filters.${key}`).sort());
    expect([...SENIORITIES]).toEqual(SenioritySchema.options);
    expect([...EMPLOYMENT_TYPES]).toEqual(EmploymentTypeSchema.options);
  });

  it('leaves empty fields out, so an empty form filters nothing', () => {
    expect(toFilters(NO_FILTERS)).toEqual({});
    expect(FiltersSchema.parse(toFilters(NO_FILTERS))).toEqual({});
  });

  it('builds a Filters object the API takes from every field', () => {
    const filters = toFilters({
      title_or: 'engineer, developer',
      title_not: ' intern ,',
      country_code_or: 'gb, De',
      posted_within_days: '7',
      seniority_or: ['senior', 'lead'],
      employment_type_or: ['full_time'],
      remote: 'on_site',
      salary_min_gte: '80000',
      company_domain_or: 'Acme.example',
      job_family_or: 'engineering',
      include_closed: true,
    });
    expect(filters).toEqual({
      title_or: ['engineer', 'developer'],
      title_not: ['intern'],
      country_code_or: ['GB', 'DE'],
      posted_within_days: 7,
      seniority_or: ['senior', 'lead'],
      employment_type_or: ['full_time'],
      remote: false,
      salary_min_gte: 80000,
      company_domain_or: ['acme.example'],
      job_family_or: ['engineering'],
      include_closed: true,
    });
    expect(FiltersSchema.safeParse(filters).success).toBe(true);
    expect(toFilters({ ...NO_FILTERS, remote: 'remote' })).toEqual({ remote: true });
  });

  it('says a Filters object in words', () => {
    expect(describeFilters(null)).toBe('any job');
    expect(describeFilters({})).toBe('any job');
    expect(describeFilters({ title_or: ['engineer'], country_code_or: ['GB'], remote: true })).toBe(
      'titles: engineer; countries: GB; remote only',
    );
  });
});

describe('whether filters narrow the jobs', () => {
  it('is false for none, and for closed jobs included alone: every job in the market', () => {
    expect(narrowsJobs(toFilters(NO_FILTERS))).toBe(false);
    expect(narrowsJobs(toFilters({ ...NO_FILTERS, include_closed: true }))).toBe(false);
  });

  it('is true once any filter that selects jobs is set', () => {
    expect(narrowsJobs(toFilters({ ...NO_FILTERS, title_or: 'engineer' }))).toBe(true);
    expect(narrowsJobs(toFilters({ ...NO_FILTERS, remote: 'remote', include_closed: true }))).toBe(true);
  });
});
