/**
 * Every filter of the Filters object, declared once: the schema it is validated with (in
 * @jobs/contracts), its test of a job in memory, the same test as SQL on the own index's store,
 * and its rule in the Filters guide (which partners apply it themselves is the provider registry's
 * `appliesItself`, in @jobs/contracts). A filter added to
 * FiltersSchema does not compile until it has all of them here.
 *
 * The in-memory test is the meaning: the live search re-checks every page with it, the sandbox
 * applies it to its fixed jobs, and the SQL returns exactly what it keeps (a property test on
 * PostgreSQL draws random jobs and filters and compares them).
 */
import type { z } from 'zod';
import { FiltersSchema, type Filters, type Job, type Salary } from '@jobs/contracts';
import { joinSql, sql, type SqlCondition } from './sql-condition.js';
import { anyKeywordMatches, titleKeywordSql, titleSearchText } from './title-words.js';

export type FilterKey = keyof Filters;
/** A filter's value when it is set (null, like omitted, means "any"). */
export type FilterValue<K extends FilterKey> = Exclude<Filters[K], undefined | null>;

export interface FilterContext {
  /** The moment `posted_within_days` counts back from, in epoch milliseconds. */
  now: number;
}

export interface FilterDefinition<V, S extends z.ZodType = z.ZodType> {
  /** The filter's schema, in FiltersSchema (libs/contracts is the one source of schemas). */
  readonly schema: S;
  /** What an omitted (or null) filter behaves as; without it, an omitted filter keeps every job. */
  readonly whenOmitted?: V;
  /** Whether a job passes the filter set to `value`. */
  matches(job: Job, value: V, context: FilterContext): boolean;
  /** The same test as a SQL condition on a row `j` of `canonical_jobs`. */
  sql(value: V, context: FilterContext): SqlCondition;
  /** The filter's rule in the Filters guide ("Rules worth knowing"), Markdown; null: the table says it all. */
  readonly docsRule: string | null;
}

type FilterDefinitions = {
  readonly [K in FilterKey]: FilterDefinition<FilterValue<K>, (typeof FiltersSchema.shape)[K]>;
};

const DAY_MS = 86_400_000;

/** How many of each salary period a year holds: a month 12, an hour 2080 (40 hours x 52 weeks). */
export const PERIODS_PER_YEAR: Readonly<Record<Salary['period'], number>> = { year: 1, month: 12, hour: 2080 };

/** `salary.min` as a yearly amount in the job's currency; null when unknown. */
export function yearlyMinimum(salary: Salary | null): number | null {
  if (!salary || salary.min === null) return null;
  return salary.min * PERIODS_PER_YEAR[salary.period];
}

/** `PERIODS_PER_YEAR` of the row's salary period, as SQL (null for a period it does not know). */
const PERIODS_PER_YEAR_SQL = sql`(CASE j.salary_period ${joinSql(
  Object.entries(PERIODS_PER_YEAR).map(([period, count]) => sql`WHEN ${period} THEN ${count}::float8`),
  ' ',
)} END)`;

const TITLE_SEARCH = sql`j.title_search`;
const anyKeywordSql = (keywords: readonly string[]) =>
  sql`(${joinSql(
    keywords.map((keyword) => titleKeywordSql(TITLE_SEARCH, keyword)),
    ' OR ',
  )})`;

/** A value among `allowed`; an unknown (null) value never is. */
const oneOf = <T>(value: T | null, allowed: readonly T[]) => value !== null && allowed.includes(value);

/** Both title filters' rule: the word-prefix rule of `title-words.ts`. */
const TITLE_KEYWORD_RULE =
  'keywords match by word, ignoring case and accents (`ß` counts as `ss`, `ø` as `o`): each word of a keyword ' +
  'must start a word of the ' +
  'title, so `engineer` finds "Senior Engineer" and "Engineering Manager", and `data eng` finds "Data Engineer".';

const UNKNOWN_LEFT_OUT = 'a job whose value is unknown (`null`) does not match.';

/** "per month 12 times, per hour 2,080 times": PERIODS_PER_YEAR in words, for the guide. */
const PERIODS_IN_WORDS = Object.entries(PERIODS_PER_YEAR)
  .filter(([, count]) => count !== 1)
  .map(([period, count]) => `per ${period} ${count.toLocaleString('en-US')} times`)
  .join(', ');

export const FILTERS = {
  title_or: {
    schema: FiltersSchema.shape.title_or,
    matches: (job, keywords) => anyKeywordMatches(titleSearchText(job.title), keywords),
    sql: (keywords) => anyKeywordSql(keywords),
    docsRule: TITLE_KEYWORD_RULE,
  },
  title_not: {
    schema: FiltersSchema.shape.title_not,
    matches: (job, keywords) => !anyKeywordMatches(titleSearchText(job.title), keywords),
    sql: (keywords) => sql`NOT ${anyKeywordSql(keywords)}`,
    docsRule: TITLE_KEYWORD_RULE,
  },
  country_code_or: {
    schema: FiltersSchema.shape.country_code_or,
    matches: (job, codes) => oneOf(job.location.country_code, codes),
    sql: (codes) => sql`j.country_code = ANY(${codes}::text[])`,
    docsRule: UNKNOWN_LEFT_OUT,
  },
  posted_within_days: {
    schema: FiltersSchema.shape.posted_within_days,
    matches: (job, days, { now }) => Date.parse(job.first_seen_at) >= now - days * DAY_MS,
    sql: (days, { now }) => sql`j.first_seen_at >= ${new Date(now - days * DAY_MS)}`,
    docsRule:
      "counts from when a source first saw the job (`first_seen_at`), not from the employer's `posted_at`, " +
      'which is often unknown.',
  },
  seniority_or: {
    schema: FiltersSchema.shape.seniority_or,
    matches: (job, seniorities) => oneOf(job.seniority, seniorities),
    sql: (seniorities) => sql`j.seniority = ANY(${seniorities}::text[])`,
    docsRule: UNKNOWN_LEFT_OUT,
  },
  employment_type_or: {
    schema: FiltersSchema.shape.employment_type_or,
    matches: (job, types) => oneOf(job.employment_type, types),
    sql: (types) => sql`j.employment_type = ANY(${types}::text[])`,
    docsRule: UNKNOWN_LEFT_OUT,
  },
  remote: {
    schema: FiltersSchema.shape.remote,
    matches: (job, remote) => job.location.remote === remote,
    sql: (remote) => sql`j.remote = ${remote}`,
    docsRule:
      '`false` keeps on-site and hybrid jobs, and leaves out jobs whose remote status is unknown; `null` is ' +
      'the same as leaving it out.',
  },
  salary_min_gte: {
    schema: FiltersSchema.shape.salary_min_gte,
    matches: (job, least) => {
      const yearly = yearlyMinimum(job.salary);
      return yearly !== null && yearly >= least;
    },
    sql: (least) =>
      sql`(j.salary_currency IS NOT NULL AND j.salary_min IS NOT NULL
        AND j.salary_min * ${PERIODS_PER_YEAR_SQL} >= ${least})`,
    docsRule:
      `compares yearly amounts: a \`salary.min\` counts ${PERIODS_IN_WORDS}, ` +
      "in the job's own currency (no conversion between currencies); jobs without a salary, or without a " +
      '`salary.min`, are left out.',
  },
  company_domain_or: {
    schema: FiltersSchema.shape.company_domain_or,
    matches: (job, domains) => oneOf(job.company.domain, domains),
    sql: (domains) => sql`j.company_id IN (SELECT c.id FROM companies c WHERE c.domain = ANY(${domains}::text[]))`,
    docsRule: UNKNOWN_LEFT_OUT,
  },
  job_family_or: {
    schema: FiltersSchema.shape.job_family_or,
    matches: (job, families) =>
      job.job_family !== null && families.map((family) => family.toLowerCase()).includes(job.job_family.toLowerCase()),
    sql: (families) => sql`lower(j.job_family) = ANY(${families.map((family) => family.toLowerCase())}::text[])`,
    docsRule: 'compares case-insensitively (`Engineering` finds `engineering`); ' + UNKNOWN_LEFT_OUT,
  },
  include_closed: {
    schema: FiltersSchema.shape.include_closed,
    whenOmitted: false,
    matches: (job, includeClosed) => includeClosed || job.status !== 'closed',
    // a literal, not a parameter: the partial indexes over open jobs serve only a predicate they can prove
    sql: (includeClosed) => (includeClosed ? sql`TRUE` : sql`j.status = 'open'`),
    docsRule: 'closed jobs are left out unless `include_closed` is `true`.',
  },
} satisfies FilterDefinitions;
