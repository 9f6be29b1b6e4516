// Rewrites the Filters guide's table from the contracts' FiltersSchema (libs/docs-site, built).
// Run: npm run docs:filters. The docs-site spec `filters-reference.spec.ts` fails when they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderFiltersTable } from '@jobs/docs-site';

const guide = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'libs', 'docs-site', 'guides', 'filters.md');
const text = readFileSync(guide, 'utf8');
const block = /(<!-- filters:start[^\n]*-->\n)[\s\S]*?(<!-- filters:end -->)/;
if (!block.test(text)) throw new Error('filters.md has no filters:start/filters:end block');
writeFileSync(
  guide,
  text.replace(block, (_, open, close) => `${open}${renderFiltersTable()}\n${close}`),
);
process.stdout.write('libs/docs-site/guides/filters.md table rewritten\n');
