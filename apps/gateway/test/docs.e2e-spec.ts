import { ERROR_CODES, type ErrorCode } from '@jobs/contracts';
import { api, stack } from './stack.js';

interface Fetched {
  url: URL;
  status: number;
  contentType: string;
  headers: Headers;
  text: string;
}

const origin = new URL(stack.baseUrl).origin;

async function get(url: URL, headers: Record<string, string> = {}): Promise<Fetched> {
  const res = await fetch(url, { redirect: 'manual', headers });
  return {
    url,
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    headers: res.headers,
    text: await res.text(),
  };
}

/** Every href/src of an HTML page, as written (entities of attribute values decoded). */
const htmlReferences = (html: string) =>
  [...html.matchAll(/\s(?:href|src)\s*=\s*"([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
/** What an HTML page loads (script sources, stylesheets, icons, images), as opposed to links a reader may follow. */
const htmlAssets = (html: string) =>
  [...html.matchAll(/<(?:script|img|link)\b[^>]*\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
const htmlIds = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));
/** The link targets of a Markdown page, outside fenced code. */
const markdownLinks = (markdown: string) =>
  [...markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
/** The HTML page whose headings a twin's anchors name: `/docs/x.md` -> `/docs/x`, `/docs/index.md` -> `/docs`. */
const htmlOfTwin = (path: string) => (path === '/docs/index.md' ? '/docs' : path.replace(/\.md$/, ''));

/**
 * The documentation served at /docs (libs/docs-site): crawled from the index, every internal
 * link followed (the HTML pages and their Markdown twins, the assets, /openapi.yaml), every
 * anchor found on its target page, every content type checked, and every error code's doc_url
 * resolves to its section of the errors page on this host.
 */
describe('GET /docs', () => {
  const pages = new Map<string, Fetched>();
  const anchorLinks: { from: string; path: string; anchor: string }[] = [];
  const problems: string[] = [];
  /** Pages of this host beside the documentation that a guide links to. */
  const beside = new Set<string>();

  beforeAll(async () => {
    const queue: URL[] = [new URL('/docs', origin)];
    const seen = new Set<string>(['/docs']);
    const enqueue = (from: string, href: string) => {
      const url = new URL(href, new URL(from, origin));
      if (url.origin !== origin) return undefined; // a link out of the site, not an asset (checked below)
      // the site's other pages on this host (the dashboard): they must answer, and are not crawled
      if (!url.pathname.startsWith('/docs') && url.pathname !== '/openapi.yaml') {
        beside.add(url.pathname);
        return undefined;
      }
      if (url.hash) anchorLinks.push({ from, path: url.pathname, anchor: decodeURIComponent(url.hash.slice(1)) });
      if (!seen.has(url.pathname)) {
        seen.add(url.pathname);
        queue.push(new URL(url.pathname, origin));
      }
      return undefined;
    };
    while (queue.length > 0) {
      const url = queue.shift()!;
      const page = await get(url);
      pages.set(url.pathname, page);
      if (page.status === 308) {
        enqueue(url.pathname, page.headers.get('location')!);
        continue;
      }
      if (page.status !== 200) {
        problems.push(`${url.pathname}: ${page.status}`);
        continue;
      }
      if (page.contentType.startsWith('text/html')) {
        for (const asset of htmlAssets(page.text))
          if (!/^(\/(?!\/)|data:)/.test(asset))
            problems.push(`${url.pathname} loads an asset from outside this host: ${asset}`);
        for (const href of htmlReferences(page.text)) if (!href.startsWith('data:')) enqueue(url.pathname, href);
      } else if (page.contentType.startsWith('text/markdown')) {
        for (const href of markdownLinks(page.text)) enqueue(url.pathname, href);
      }
    }
    for (const path of beside) {
      const page = await get(new URL(path, origin));
      if (page.status !== 200) problems.push(`${path} (linked from the docs): ${page.status}`);
    }
  });

  it('reaches every page of the site and its Markdown twin, nothing broken, no asset from outside this host', () => {
    expect(problems).toEqual([]);
    // the quick start links the dashboard, which the gateway serves beside the docs
    expect([...beside]).toContain('/dashboard/');
    const slugs = [
      'quick-start',
      'authentication',
      'filters',
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
    ];
    for (const path of [
      '/docs',
      '/docs/index.md',
      ...slugs.flatMap((slug) => [`/docs/${slug}`, `/docs/${slug}.md`]),
      '/openapi.yaml',
    ]) {
      expect([path, pages.get(path)?.status]).toEqual([path, 200]);
    }
  });

  it('answers each kind of document with its content type', () => {
    const expected = (path: string) =>
      path === '/openapi.yaml'
        ? /^application\/yaml/
        : path.endsWith('.md')
          ? /^text\/markdown; charset=utf-8$/
          : path.endsWith('.css')
            ? /^text\/css; charset=utf-8$/
            : path.endsWith('.js')
              ? /^text\/javascript; charset=utf-8$/
              : /^text\/html; charset=utf-8$/;
    const wrong = [...pages.values()]
      .filter((page) => page.status === 200 && !expected(page.url.pathname).test(page.contentType))
      .map((page) => `${page.url.pathname}: ${page.contentType}`);
    expect(wrong).toEqual([]);
    for (const page of pages.values()) {
      if (page.contentType.startsWith('text/html'))
        expect(page.text).toMatch(
          new RegExp(
            `<link rel="alternate" type="text/markdown" ` +
              `href="${page.url.pathname === '/docs' ? '/docs/index.md' : `${page.url.pathname}.md`}"`,
          ),
        );
    }
  });

  it("finds every linked anchor on its target page (a twin's anchors are its HTML page's)", () => {
    const missing = anchorLinks
      .filter(({ path, anchor }) => {
        const target = pages.get(path.endsWith('.md') ? htmlOfTwin(path) : path);
        return target?.contentType.startsWith('text/html') !== true || !htmlIds(target.text).has(anchor);
      })
      .map(({ from, path, anchor }) => `${from} -> ${path}#${anchor}`);
    expect(missing).toEqual([]);
    expect(anchorLinks.length).toBeGreaterThan(20);
  });

  it("points every error's doc_url at its section on this host", async () => {
    const unauthorized = await api('/v1/account');
    const notFound = await api('/v1/no-such-endpoint');
    const invalid = await api('/v1/account', { headers: { 'Service-Version': '1999-01-01' } });
    const real = [unauthorized, notFound, invalid].map(
      (res) => (res.body as { error: { code: ErrorCode; doc_url: string } }).error,
    );
    expect(real.map((error) => error.code)).toEqual(['unauthorized', 'not_found', 'invalid_request']);
    for (const error of real) expect(error.doc_url).toBe(`${origin}/docs/errors#${error.code}`);

    // Every code the API can return, by the same rule: its page exists and has the code's section.
    const errorsPage = await get(new URL('/docs/errors', origin));
    expect(errorsPage.status).toBe(200);
    const ids = htmlIds(errorsPage.text);
    for (const code of ERROR_CODES) {
      const url = new URL(real[0]!.doc_url.replace(/#.*$/, `#${code}`));
      expect([code, url.pathname, ids.has(url.hash.slice(1))]).toEqual([code, '/docs/errors', true]);
    }
  });

  it(
    'loads only assets of this host on the API reference: Swagger ' +
      'UI from the npm package, no CDN, no fonts, no validator',
    async () => {
      const page = pages.get('/docs/api')!;
      expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
      for (const ref of htmlReferences(page.text)) expect(ref).toMatch(/^(\/|#|data:)/);
      const scripts = [...page.text.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
      expect(scripts.map((src) => src.split('/').pop())).toEqual(['swagger-ui-bundle.js', 'api-reference.js']);
      const initializer = pages.get(scripts[1]!)!.text;
      expect(initializer).toContain('url: "/openapi.yaml"');
      expect(initializer).toContain('validatorUrl: null');
      const stylesheets = [...page.text.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map(
        (m) => pages.get(m[1]!)!.text,
      );
      const outside = stylesheets
        .flatMap((css) => [...css.matchAll(/url\(\s*['"]?([^'")]+)/g)].map((m) => m[1]!))
        .filter((url) => !url.startsWith('data:'));
      expect(outside).toEqual([]);
      expect(stylesheets.join('\n')).not.toMatch(/@import|@font-face/);
    },
  );

  it('needs no key and is not rate limited; pages revalidate by ETag, assets are immutable and gzipped', async () => {
    const res = await get(new URL('/docs/errors', origin), { Authorization: 'Bearer svc_live_not_a_key' });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const again = await get(new URL('/docs/errors', origin), { 'If-None-Match': res.headers.get('etag')! });
    expect([again.status, again.text]).toEqual([304, '']);

    const asset = [...pages.keys()].find((path) => path.endsWith('/swagger-ui-bundle.js'))!;
    const head = await fetch(new URL(asset, origin), { method: 'HEAD', headers: { 'Accept-Encoding': 'gzip' } });
    expect(head.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(head.headers.get('content-encoding')).toBe('gzip');

    expect((await get(new URL('/docs.md', origin))).headers.get('location')).toBe('/docs/index.md');
    expect((await get(new URL('/docs/', origin))).headers.get('location')).toBe('/docs');
    const unknown = await api('/docs/no-such-page');
    expect(unknown.status).toBe(404);
    expect((unknown.body as { error: { code: string } }).error.code).toBe('not_found');
  });
});
