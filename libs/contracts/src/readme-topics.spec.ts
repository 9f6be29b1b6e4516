import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderTopicTable } from './topology.js';

describe('the README topic table', () => {
  it('is the declared topology (run `npm run docs:topics` after changing a topic)', () => {
    const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'README.md'), 'utf8');
    const block = /<!-- topics:start[^\n]*-->\n([\s\S]*?)\n<!-- topics:end -->/.exec(readme);
    expect(block).not.toBeNull();
    expect(block![1]).toBe(renderTopicTable());
  });
});
