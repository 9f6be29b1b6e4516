/**
 * The Filters object of searches and search watches, as a form holds it (text as typed) and as the
 * API takes it. Plain functions, no DOM. The names and choices follow the public API's Filters
 * object; filters.spec.ts checks them against its schema.
 */
import type { Filters } from './api.js';
import type { FieldMap } from './problem-words.js';
import { splitList } from './format.js';

export const SENIORITIES = ['intern', 'junior', 'mid', 'senior', 'lead', 'director', 'vp', 'c_level'] as const;
export const EMPLOYMENT_TYPES = ['full_time', 'part_time', 'contract', 'internship', 'temporary'] as const;
export type Remote = 'any' | 'remote' | 'on_site';

/** Every filter of the API, as the form's fields hold it. */
export interface FiltersDraft {
  title_or: string;
  title_not: string;
  country_code_or: string;
  posted_within_days: string;
  seniority_or: string[];
  employment_type_or: string[];
  remote: Remote;
  salary_min_gte: string;
  company_domain_or: string;
  job_family_or: string;
  include_closed: boolean;
}

export const NO_FILTERS: FiltersDraft = {
  title_or: '',
  title_not: '',
  country_code_or: '',
  posted_within_days: '',
  seniority_or: [],
  employment_type_or: [],
  remote: 'any',
  salary_min_gte: '',
  company_domain_or: '',
  job_family_or: '',
  include_closed: false,
};

/** Each filter's label on the form, by the request path a refusal names (`filters.title_or`). */
export const FILTER_FIELDS: FieldMap = {
  'filters.title_or': { label: 'Title keywords' },
  'filters.title_not': { label: 'Leave out titles with' },
  'filters.country_code_or': {
    label: 'Countries',
    hint: 'two-letter country codes separated by commas, such as GB, DE (GB, not UK)',
  },
  'filters.posted_within_days': { label: 'Posted within (days)', hint: 'a whole number from 1 to 365' },
  'filters.seniority_or': { label: 'Seniority' },
  'filters.employment_type_or': { label: 'Employment type' },
  'filters.remote': { label: 'Remote' },
  'filters.salary_min_gte': { label: 'Minimum yearly salary', hint: 'a number of 0 or more' },
  'filters.company_domain_or': {
    label: 'Company domains',
    hint: 'domains such as acme.com separated by commas, without https:// or a path',
  },
  'filters.job_family_or': { label: 'Job families' },
  'filters.include_closed': { label: 'Include closed jobs' },
};

const number = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));
const list = (text: string): string[] | undefined => {
  const words = splitList(text);
  return words.length > 0 ? words : undefined;
};

/** The Filters object of a draft: a field left empty is left out (it does not filter). */
export function toFilters(draft: FiltersDraft): Filters {
  const filters: Record<string, unknown> = {
    title_or: list(draft.title_or),
    title_not: list(draft.title_not),
    country_code_or: list(draft.country_code_or.toUpperCase()),
    posted_within_days: number(draft.posted_within_days),
    seniority_or: draft.seniority_or.length > 0 ? draft.seniority_or : undefined,
    employment_type_or: draft.employment_type_or.length > 0 ? draft.employment_type_or : undefined,
    remote: draft.remote === 'any' ? undefined : draft.remote === 'remote',
    salary_min_gte: number(draft.salary_min_gte),
    company_domain_or: list(draft.company_domain_or.toLowerCase()),
    job_family_or: list(draft.job_family_or),
    include_closed: draft.include_closed ? true : undefined,
  };
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)) as Filters;
}

/**
 * Whether filters narrow the jobs at all: without one (closed jobs included or not), a search
 * watch would send every new job in the market, each `job.opened` a credit.
 */
export function narrowsJobs(filters: Filters): boolean {
  return Object.keys(filters).some((name) => name !== 'include_closed');
}

const words = (value: unknown) => (Array.isArray(value) ? value.join(', ') : String(value));

/** A Filters object in a line of words ("titles: engineer; countries: GB; remote only"); "any job" when empty. */
export function describeFilters(filters: Readonly<Record<string, unknown>> | null | undefined): string {
  if (!filters) return 'any job';
  const f = filters;
  const parts = [
    f['title_or'] !== undefined ? `titles: ${words(f['title_or'])}` : '',
    f['title_not'] !== undefined ? `not: ${words(f['title_not'])}` : '',
    f['country_code_or'] !== undefined ? `countries: ${words(f['country_code_or'])}` : '',
    f['posted_within_days'] !== undefined ? `posted within ${words(f['posted_within_days'])} days` : '',
    f['seniority_or'] !== undefined ? `seniority: ${words(f['seniority_or'])}` : '',
    f['employment_type_or'] !== undefined ? `type: ${words(f['employment_type_or'])}` : '',
    f['remote'] === true ? 'remote only' : f['remote'] === false ? 'on-site or hybrid only' : '',
    f['salary_min_gte'] !== undefined ? `salary from ${words(f['salary_min_gte'])} a year` : '',
    f['company_domain_or'] !== undefined ? `companies: ${words(f['company_domain_or'])}` : '',
    f['job_family_or'] !== undefined ? `families: ${words(f['job_family_or'])}` : '',
    f['include_closed'] === true ? 'closed jobs too' : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : 'any job';
}
