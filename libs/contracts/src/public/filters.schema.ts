/**
 * Filters object, shared by sync searches, async searches and search watches.
 *
 * The object is STRICT: an unknown key fails with a zod `unrecognized_keys` issue whose path is
 * the filters object and whose `keys` lists the offenders. `describeRequestError` (see
 * request-issues.ts) turns that into `400 unknown_filter` with `param: "filters.<key>"`.
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - Every `..._or` / `..._not` array holds at least 1 item (an empty list is ambiguous: omit the
 *   field instead) and at most: `title_or`, `title_not`, `job_family_or` 50 items of 1 to 200
 *   characters; `country_code_or` 250 (every ISO code fits); `seniority_or` 8 and
 *   `employment_type_or` 5 (every enum value once); `company_domain_or` 500.
 * - Country codes must be upper case (`GB`, never `gb` or `UK`); domains are lower-cased.
 * - `salary_min_gte` is a finite number >= 0.
 * - No defaults: an omitted field does not filter (closed jobs stay excluded unless
 *   `include_closed` is true).
 */
import { z } from 'zod';
import { CountryCodeSchema, DomainSchema } from './common.schema.js';
import { EmploymentTypeSchema, SenioritySchema } from './job.schema.js';

export const FILTER_LIMITS = {
  keywords: 50,
  keywordLength: 200,
  countryCodes: 250,
  seniorities: 8,
  employmentTypes: 5,
  companyDomains: 500,
  jobFamilies: 50,
  postedWithinDaysMin: 1,
  postedWithinDaysMax: 365,
} as const;

const keyword = z.string().min(1).max(FILTER_LIMITS.keywordLength);

/**
 * Each filter's meaning and an example, in the schema itself: the OpenAPI document, the MCP tool
 * list and the Filters guide (libs/docs-site, generated from this) all read them here.
 */
export const FiltersSchema = z.strictObject({
  title_or: z
    .array(keyword)
    .min(1)
    .max(FILTER_LIMITS.keywords)
    .optional()
    .meta({ description: 'Jobs whose title contains any of these words.', examples: [['engineer', 'developer']] }),
  title_not: z
    .array(keyword)
    .min(1)
    .max(FILTER_LIMITS.keywords)
    .optional()
    .meta({ description: 'Leaves out jobs whose title contains any of these words.', examples: [['intern']] }),
  country_code_or: z
    .array(CountryCodeSchema)
    .min(1)
    .max(FILTER_LIMITS.countryCodes)
    .optional()
    .meta({
      description: 'Jobs in any of these countries: ISO 3166-1 alpha-2 codes (GB, not UK).',
      examples: [['GB', 'DE']],
    }),
  posted_within_days: z
    .number()
    .int()
    .min(FILTER_LIMITS.postedWithinDaysMin)
    .max(FILTER_LIMITS.postedWithinDaysMax)
    .optional()
    .meta({ description: 'Jobs first seen by any source within this many days.', examples: [7] }),
  seniority_or: z
    .array(SenioritySchema)
    .min(1)
    .max(FILTER_LIMITS.seniorities)
    .optional()
    .meta({ description: 'Jobs at any of these seniority levels.', examples: [['senior', 'lead']] }),
  employment_type_or: z
    .array(EmploymentTypeSchema)
    .min(1)
    .max(FILTER_LIMITS.employmentTypes)
    .optional()
    .meta({ description: 'Jobs of any of these employment types.', examples: [['full_time', 'contract']] }),
  remote: z
    .boolean()
    .nullable()
    .optional()
    .meta({
      description: 'true: remote jobs only; false: on-site or hybrid only; null or omitted: any.',
      examples: [true],
    }),
  salary_min_gte: z
    .number()
    .min(0)
    .optional()
    .meta({
      description:
        "Jobs whose salary.min is at least this (yearly, in the job's currency); jobs without a salary are left out.",
      examples: [80000],
    }),
  company_domain_or: z
    .array(DomainSchema)
    .min(1)
    .max(FILTER_LIMITS.companyDomains)
    .optional()
    .meta({
      description: "Jobs of any of these companies, by the company's web domain.",
      examples: [['acme.example']],
    }),
  job_family_or: z
    .array(keyword)
    .min(1)
    .max(FILTER_LIMITS.jobFamilies)
    .optional()
    .meta({ description: 'Jobs in any of these job families.', examples: [['engineering']] }),
  include_closed: z
    .boolean()
    .optional()
    .meta({ description: 'true: closed jobs too (they are left out otherwise).', examples: [true] }),
});
export type Filters = z.infer<typeof FiltersSchema>;
export type FiltersInput = z.input<typeof FiltersSchema>;

/** Every known filter name, e.g. to suggest the right one in an `unknown_filter` message. */
export const FILTER_KEYS = Object.keys(FiltersSchema.shape) as (keyof Filters)[];
