import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { examples, FILTER_KEYS, FiltersSchema, type Filters, type Job } from '@jobs/contracts';
import {
  FILTERS,
  filtersCondition,
  joinSql,
  matchesFilters,
  partnerAppliedFilters,
  partnersApplyAll,
  PERIODS_PER_YEAR,
  renderFilterRules,
  sql,
  SqlCondition,
} from './index.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const GUIDE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs-site', 'guides', 'filters.md');

/** A condition as text with $n placeholders and its values, as a database client would send it. */
function flatten(condition: SqlCondition): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const walk = (c: SqlCondition): string =>
    c.strings.reduce((text, part, i) => {
      if (i === 0) return part;
      const value = c.values[i - 1];
      if (value instanceof SqlCondition) return text + walk(value) + part;
      values.push(value);
      return `${text}$${values.length}${part}`;
    }, '');
  return { text: walk(condition).replace(/\s+/g, ' '), values };
}

describe('the filter registry', () => {
  it('defines every filter of FiltersSchema, pointing at its schema, in its order', () => {
    expect(Object.keys(FILTERS)).toEqual(FILTER_KEYS);
    for (const key of FILTER_KEYS) expect(FILTERS[key].schema).toBe(FiltersSchema.shape[key]);
  });

  it('states SQL with every value bound, never spliced into the text', () => {
    const { text, values } = flatten(
      filtersCondition({ title_or: ["o'brien", 'software eng'], country_code_or: ['GB'], remote: true }, NOW),
    );
    expect(text).toBe(
      '((j.title_search LIKE $1 AND j.title_search LIKE $2) OR (j.title_search LIKE $3 AND j.title_search LIKE $4)) ' +
        "AND j.country_code = ANY($5::text[]) AND j.remote = $6 AND j.status = 'open'",
    );
    expect(values).toEqual(['% o%', '% brien%', '% software%', '% eng%', ['GB'], true]);
  });

  it('matches nothing for a keyword without words, in memory and in SQL', () => {
    const job: Job = { ...examples.job(), title: 'Engineer' };
    expect(matchesFilters(job, { title_or: ['--'] }, NOW)).toBe(false);
    expect(flatten(filtersCondition({ title_or: ['--'] }, NOW)).text).toBe("(FALSE) AND j.status = 'open'");
  });

  it("generates the salary period's yearly factor from PERIODS_PER_YEAR", () => {
    const { text, values } = flatten(filtersCondition({ salary_min_gte: 50_000, include_closed: true }, NOW));
    expect(text).toContain(
      'CASE j.salary_period WHEN $1 THEN $2::float8 WHEN $3 THEN $4::float8 WHEN $5 THEN $6::float8',
    );
    expect(values.slice(0, 6)).toEqual(Object.entries(PERIODS_PER_YEAR).flat());
    expect(values[6]).toBe(50_000);
  });

  it('keeps every open job without filters, and leaves closed ones out unless include_closed', () => {
    expect(flatten(filtersCondition({}, NOW)).text).toBe("j.status = 'open'");
    expect(flatten(filtersCondition({ include_closed: true }, NOW)).text).toBe('TRUE');
    expect(flatten(filtersCondition({ remote: null }, NOW)).text).toBe("j.status = 'open'");
  });

  it('joins conditions, and refuses a condition whose text and values do not line up', () => {
    expect(flatten(joinSql([sql`a = ${1}`, sql`b = ${2}`], ' OR ')).text).toBe('a = $1 OR b = $2');
    expect(() => new SqlCondition(['a', 'b'], [])).toThrow(/one more string/);
    expect(() => joinSql([], ' AND ')).toThrow(/nothing to join/);
  });
});

describe('partnerAppliedFilters', () => {
  it('keeps what partners apply themselves: keywords, companies, remote, closed jobs and one country', () => {
    const filters: Filters = {
      title_or: ['engineer'],
      title_not: ['intern'],
      country_code_or: ['GB'],
      seniority_or: ['senior'],
      remote: false,
      company_domain_or: ['acme.example'],
      include_closed: false,
      salary_min_gte: 1,
    };
    expect(partnerAppliedFilters(filters)).toEqual({
      title_or: ['engineer'],
      country_code_or: ['GB'],
      remote: false,
      company_domain_or: ['acme.example'],
      include_closed: false,
    });
    expect(partnerAppliedFilters({ country_code_or: ['GB', 'DE'], remote: null })).toEqual({});
  });

  it('says whether partners apply every filter that is set', () => {
    expect(partnersApplyAll({ title_or: ['engineer'], remote: null, country_code_or: ['GB'] })).toBe(true);
    expect(partnersApplyAll({ title_or: ['engineer'], country_code_or: ['GB', 'DE'] })).toBe(false);
    expect(partnersApplyAll({ posted_within_days: 3 })).toBe(false);
  });
});

describe("the Filters guide's rules", () => {
  it("are the registry's docs rules (npm run docs:filters rewrites them)", () => {
    const guide = readFileSync(GUIDE, 'utf8');
    const block = /<!-- filter-rules:start[^\n]*-->\n([\s\S]*?)\n<!-- filter-rules:end -->/.exec(guide)?.[1];
    expect(block).toBe(renderFilterRules());
  });

  it('name each filter with a rule once, and say salary periods as PERIODS_PER_YEAR counts them', () => {
    const rules = renderFilterRules();
    const named = rules.split('\n').flatMap((line) => /^- ([^:]+):/.exec(line)![1]!.split(', '));
    expect(named.sort()).toEqual(
      FILTER_KEYS.filter((key) => FILTERS[key].docsRule !== null)
        .map((key) => `\`${key}\``)
        .sort(),
    );
    expect(rules).toContain(`per hour ${PERIODS_PER_YEAR.hour.toLocaleString('en-US')} times`);
  });
});
