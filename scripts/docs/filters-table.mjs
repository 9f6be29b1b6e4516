// Rewrites the Filters guide's table from the contracts' FiltersSchema (libs/docs-site, built) and
// its rules from the filter registry (libs/job-filters, built). Run: npm run docs:filters. The
// specs `filters-reference.spec.ts` (docs-site) and `filter-registry.spec.ts` (job-filters) fail when they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderFiltersTable } from '@jobs/docs-site';
import { renderFilterRules } from '@jobs/job-filters';

const guide = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'libs', 'docs-site', 'guides', 'filters.md');
let text = readFileSync(guide, 'utf8');
for (const [name, render] of [
  ['filters', renderFiltersTable],
  ['filter-rules', renderFilterRules],
]) {
  const block = new RegExp(`(<!-- ${name}:start[^\\n]*-->\\n)[\\s\\S]*?(<!-- ${name}:end -->)`);
  if (!block.test(text)) throw new Error(`filters.md has no ${name}:start/${name}:end block`);
  text = text.replace(block, (_, open, close) => `${open}${render()}\n${close}`);
}
writeFileSync(guide, text);
process.stdout.write('libs/docs-site/guides/filters.md table and rules rewritten\n');
