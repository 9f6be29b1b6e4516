/**
 * The Filters object of interface.md, one meaning everywhere, composed from the filter registry
 * (`FILTERS`): every filter that is set must pass (AND), an omitted or null one keeps every job
 * (except `include_closed`, which leaves closed jobs out when omitted). A job whose filtered field
 * is null (unknown) never matches a filter on that field.
 */
import { PARTNER_PROVIDER_SLUGS, PROVIDERS, type FilterApplication, type Filters, type Job } from '@jobs/contracts';
import { FILTERS, type FilterContext, type FilterDefinition, type FilterKey } from './filter-registry.js';
import { joinSql, sql, type SqlCondition } from './sql-condition.js';

/** Every filter key with its definition, in the registry's (and FiltersSchema's) order. */
const DEFINITIONS = Object.entries(FILTERS) as [FilterKey, FilterDefinition<unknown>][];

/** Each filter that applies to a request with the value it applies with (its `whenOmitted` when omitted or null). */
function inEffect(filters: Filters): [FilterDefinition<unknown>, unknown][] {
  const applying: [FilterDefinition<unknown>, unknown][] = [];
  for (const [key, definition] of DEFINITIONS) {
    const value = filters[key] ?? definition.whenOmitted;
    if (value !== undefined && value !== null) applying.push([definition, value]);
  }
  return applying;
}

/** Whether a job passes every filter that is set; `now` is the moment `posted_within_days` counts back from. */
export function matchesFilters(job: Job, filters: Filters, now: number): boolean {
  const context: FilterContext = { now };
  return inEffect(filters).every(([definition, value]) => definition.matches(job, value, context));
}

/**
 * `matchesFilters` as one SQL condition on a row `j` of `canonical_jobs` (joined to nothing):
 * it keeps exactly the stored jobs `matchesFilters` keeps.
 */
export function filtersCondition(filters: Filters, now: number): SqlCondition {
  const context: FilterContext = { now };
  const conditions = inEffect(filters).map(([definition, value]) => definition.sql(value, context));
  return conditions.length > 0 ? joinSql(conditions, ' AND ') : sql`TRUE`;
}

/** Whether a provider applying a filter this way applies it set to `value` (the registry's `appliesItself`). */
function appliesValue(application: FilterApplication | undefined, value: unknown): boolean {
  return application === 'exact' || (application === 'single_value' && Array.isArray(value) && value.length === 1);
}

/**
 * The part of a filter every partner applies itself (its adapter sends it with the search), from
 * the provider registry: a partner's reported total counts the postings matching this part; the
 * rest is checked only once their records are fetched.
 */
export function partnerAppliedFilters(filters: Filters): Filters {
  const applied: Record<string, unknown> = {};
  for (const [key] of DEFINITIONS) {
    const value = filters[key];
    if (value === undefined || value === null) continue;
    if (PARTNER_PROVIDER_SLUGS.every((slug) => appliesValue(PROVIDERS[slug].appliesItself[key], value)))
      applied[key] = value;
  }
  return applied as Filters;
}

/** Whether partners apply every filter that is set: their totals then count exactly what the filter keeps. */
export function partnersApplyAll(filters: Filters): boolean {
  const applied = partnerAppliedFilters(filters);
  return Object.entries(filters).every(
    ([name, value]) => value === undefined || value === null || (applied as Record<string, unknown>)[name] === value,
  );
}

/**
 * The filters' rules for the Filters guide, one Markdown bullet per distinct rule naming the
 * filters it holds for (guides/filters.md, between the `filter-rules` markers; a unit test keeps it equal).
 */
export function renderFilterRules(): string {
  const byRule = new Map<string, FilterKey[]>();
  for (const [key, definition] of DEFINITIONS) {
    if (definition.docsRule !== null)
      byRule.set(definition.docsRule, [...(byRule.get(definition.docsRule) ?? []), key]);
  }
  return [...byRule].map(([rule, keys]) => `- ${keys.map((key) => `\`${key}\``).join(', ')}: ${rule}`).join('\n');
}
