import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderToolTable } from './mcp-tools.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** The tool table between the mcp-tools markers of a Markdown file. */
function toolTable(relativePath: string): string | undefined {
  const text = readFileSync(join(root, relativePath), 'utf8');
  return /<!-- mcp-tools:start[^\n]*-->\n([\s\S]*?)\n<!-- mcp-tools:end -->/.exec(text)?.[1];
}

describe('the MCP tool table of the docs', () => {
  it('libs/docs-site/guides/mcp.md lists every tool with what it costs, as the tools tell models', () => {
    expect(toolTable('libs/docs-site/guides/mcp.md')).toBe(renderToolTable());
  });
});
