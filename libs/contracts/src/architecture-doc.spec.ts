import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSyncSearchHops } from './sync-search-hops.js';
import { renderArchitectureTopology } from './topology-docs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The text between a file's `<marker>:start` and `<marker>:end` comments. */
function block(file: string, marker: string): string | undefined {
  const text = readFileSync(join(root, file), 'utf8');
  return new RegExp(`<!-- ${marker}:start[^\\n]*-->\\n([\\s\\S]*?)\\n<!-- ${marker}:end -->`).exec(text)?.[1];
}

describe('the generated topology of the docs (run `npm run docs:architecture` after changing a topic)', () => {
  it('docs/architecture.md shows the declared topology', () => {
    expect(block('docs/architecture.md', 'topology')).toBe(renderArchitectureTopology());
  });

  it("docs/search.md's hop table is the declared hops of a sync search", () => {
    expect(block('docs/search.md', 'sync-search-hops')).toBe(renderSyncSearchHops());
  });
});
