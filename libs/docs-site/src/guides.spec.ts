import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstHeading, navOrder, readGuides } from './guides.js';

const guide = (slug: string, title: string) => ({ slug, title, markdown: `# ${title}\n` });

describe('firstHeading', () => {
  it('is the first # heading outside fenced code, without backticks', () => {
    expect(firstHeading('intro\n```sh\n# not a title\n```\n# The `client`\n## later')).toBe('The client');
    expect(firstHeading('## only a subsection')).toBeUndefined();
  });
});

describe('navOrder', () => {
  it(
    'follows the list, then the unlisted guides by title, the ' + 'index first and the API reference always present',
    () => {
      const guides = [
        guide('index', 'Home'),
        guide('errors', 'Errors'),
        guide('zeta', 'A late guide'),
        guide('beta', 'B guide'),
      ];
      expect(navOrder(['errors', 'index', 'missing', 'errors'], guides)).toEqual([
        'index',
        'errors',
        'zeta',
        'beta',
        'api',
      ]);
      expect(navOrder(['api', 'errors'], guides)).toEqual(['index', 'api', 'errors', 'zeta', 'beta']);
    },
  );
});

describe('readGuides', () => {
  const folder = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'guides-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  };

  it('reads every .md of the folder: a file another branch adds or replaces needs no code change', () => {
    const dir = folder({
      'nav.yaml': '- index\n- client\n',
      'index.md': '# Home\n',
      'client.md': '# The client\n\nA paragraph.\n',
      'mcp.md': '# The MCP server\n',
    });
    const { guides, order } = readGuides(dir);
    expect(guides.map((g) => [g.slug, g.title])).toEqual([
      ['client', 'The client'],
      ['index', 'Home'],
      ['mcp', 'The MCP server'],
    ]);
    expect(order).toEqual(['index', 'client', 'mcp', 'api']);
  });

  it('refuses a guide without a title, a file name that is no address, and a nav that is no list', () => {
    expect(() => readGuides(folder({ 'nav.yaml': '[]', 'index.md': 'no title' }))).toThrow(/no '# ' title/);
    expect(() => readGuides(folder({ 'nav.yaml': '[]', 'Bad Name.md': '# X' }))).toThrow(/file name is its address/);
    expect(() => readGuides(folder({ 'nav.yaml': '[]', 'api.md': '# X' }))).toThrow(/file name is its address/);
    expect(() => readGuides(folder({ 'nav.yaml': 'index: 1', 'index.md': '# X' }))).toThrow(/list of page slugs/);
  });

  it('ships the index, every guide (the client and MCP server pages included) and the API reference', () => {
    const { order } = readGuides();
    for (const slug of [
      'index',
      'quick-start',
      'authentication',
      'errors',
      'pagination',
      'billing',
      'waterfall',
      'async-searches',
      'webhooks',
      'sandbox',
      'client',
      'mcp',
      'api',
    ]) {
      expect(order).toContain(slug);
    }
  });
});
