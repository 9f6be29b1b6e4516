import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILTER_KEYS, FiltersSchema } from '@jobs/contracts';
import { filterReferences, renderFiltersTable, typeInWords } from './filters-reference.js';
import { GUIDES_DIR } from './guides.js';

/** The table between the filters markers of guides/filters.md. */
function guideTable(): string | undefined {
  const text = readFileSync(join(GUIDES_DIR, 'filters.md'), 'utf8');
  return /<!-- filters:start[^\n]*-->\n([\s\S]*?)\n<!-- filters:end -->/.exec(text)?.[1];
}

describe('the Filters guide', () => {
  it('lists every filter exactly as the contracts define it (npm run docs:filters rewrites it)', () => {
    expect(guideTable()).toBe(renderFiltersTable());
  });

  it('has every filter of the schema, with a meaning and an example the schema accepts', () => {
    const references = filterReferences();
    expect(references.map((filter) => filter.name)).toEqual(FILTER_KEYS);
    for (const filter of references) {
      expect(filter.meaning.length).toBeGreaterThan(10);
      expect(FiltersSchema.safeParse(JSON.parse(filter.example)).success).toBe(true);
    }
  });

  it('says types and bounds in words, from the schema', () => {
    const byName = Object.fromEntries(filterReferences().map((filter) => [filter.name, filter.type]));
    expect(byName['posted_within_days']).toBe('integer, 1 to 365');
    expect(byName['remote']).toBe('boolean or null');
    expect(byName['title_or']).toBe('list of 1 to 50 items, each a string of 1 to 200 characters');
    expect(byName['seniority_or']).toMatch(/^list of 1 to 8 items from `intern`, `junior`, .*`c_level`$/);
    expect(byName['country_code_or']).toBe('list of 1 to 250 items, each a country code (two upper-case letters)');
  });

  it('refuses to guess at a pattern it has no words for', () => {
    expect(() => typeInWords({ type: 'string', pattern: '^x+$' })).toThrow(/describe the pattern/);
  });
});
