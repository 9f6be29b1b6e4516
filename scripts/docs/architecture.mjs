// Rewrites the generated topology blocks of docs/architecture.md and docs/search.md from the one
// declared topology (libs/contracts, built). Run: npm run docs:architecture.
// The contracts spec `architecture-doc.spec.ts` fails when a block differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderArchitectureTopology, renderSyncSearchHops } from '@jobs/contracts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const blocks = [
  { file: 'docs/architecture.md', marker: 'topology', render: renderArchitectureTopology },
  { file: 'docs/search.md', marker: 'sync-search-hops', render: renderSyncSearchHops },
];
for (const { file, marker, render } of blocks) {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  const block = new RegExp(`(<!-- ${marker}:start[^\\n]*-->\\n)[\\s\\S]*?(\\n<!-- ${marker}:end -->)`);
  if (!block.test(text)) throw new Error(`${file} has no ${marker}:start/${marker}:end block`);
  writeFileSync(
    path,
    text.replace(block, (_, open, close) => `${open}${render()}${close}`),
  );
  process.stdout.write(`${file}: ${marker} block rewritten\n`);
}
