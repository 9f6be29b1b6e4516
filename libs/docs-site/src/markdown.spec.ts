import { renderMarkdown } from './markdown.js';
import { htmlHref, pagePath, twinPath } from './paths.js';

describe('renderMarkdown', () => {
  it('gives every heading its slug as id, and takes the first h1 as the title', () => {
    const page = renderMarkdown('# Errors\n\n## `rate_limited`\n\ntext\n\n## rate_limited\n\n### How to retry\n');
    expect(page.title).toBe('Errors');
    expect(page.anchors).toEqual(['errors', 'rate_limited', 'rate_limited-2', 'how-to-retry']);
    expect(page.html).toContain(
      '<h2 id="rate_limited"><code>rate_limited</code> <a class="anchor" href="#rate_limited"',
    );
    expect(page.html).toContain('<h1 id="errors">Errors</h1>');
  });

  it('turns links to sibling guides into site paths, and leaves the others alone', () => {
    const page = renderMarkdown(
      '[a](errors.md#not_found) [b](./quick-start.md) [c](index.md) ' +
        '[d](/openapi.yaml) [e](#x) [f](https://example.com/a.md)',
    );
    expect(page.html).toContain('href="/docs/errors#not_found"');
    expect(page.html).toContain('href="/docs/quick-start"');
    expect(page.html).toContain('href="/docs"');
    expect(page.html).toContain('href="/openapi.yaml"');
    expect(page.html).toContain('href="#x"');
    expect(page.html).toContain('href="https://example.com/a.md"');
  });

  it('renders no raw HTML from a guide: nothing in one can load a script or an outside asset', () => {
    const page = renderMarkdown(
      '# T\n\n<script src="https://cdn.example/x.js"></script>\n\n<img src="https://cdn.example/i.png">\n',
    );
    expect(page.html).not.toContain('<script');
    expect(page.html).not.toContain('<img');
    expect(page.html).toContain('&lt;script');
  });

  it('renders tables and fenced code', () => {
    const page = renderMarkdown('| a | b |\n|---|---|\n| 1 | 2 |\n\n```sh\ncurl -s x\n```\n');
    expect(page.html).toContain('<table>');
    expect(page.html).toContain('<pre><code class="language-sh">curl -s x');
  });
});

describe('paths', () => {
  it('puts the index at /docs and its twin at /docs/index.md', () => {
    expect(pagePath('index')).toBe('/docs');
    expect(twinPath('index')).toBe('/docs/index.md');
    expect(pagePath('errors')).toBe('/docs/errors');
    expect(twinPath('errors')).toBe('/docs/errors.md');
    expect(htmlHref('api.md')).toBe('/docs/api');
    expect(htmlHref('../README.md')).toBe('../README.md');
  });
});
