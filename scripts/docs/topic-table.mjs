// Rewrites the README's topic table from the one declared topology (libs/contracts, built).
// Run: npm run docs:topics. The contracts spec `readme-topics.spec.ts` fails when they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderTopicTable } from '@jobs/contracts';

const readme = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md');
const text = readFileSync(readme, 'utf8');
const block = /(<!-- topics:start[^\n]*-->\n)[\s\S]*?(\n<!-- topics:end -->)/;
if (!block.test(text)) throw new Error('README.md has no topics:start/topics:end block');
writeFileSync(readme, text.replace(block, (_, open, close) => `${open}${renderTopicTable()}${close}`));
process.stdout.write('README.md topic table rewritten\n');
