import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { buildOpenApiDocument, ERROR_CODES, errorDocUrl } from '@jobs/contracts';
import { acceptsGzip, CONTENT_TYPES, DocsSite } from './site.js';

const BASE = 'https://api.example.com';
const site = DocsSite.build({ openApi: buildOpenApiDocument(), publicBaseUrl: BASE });

const text = (path: string) => site.respond(path)?.body?.toString('utf8') ?? '';
/** Every href/src of a page, as written. */
const references = (html: string) =>
  [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
/** What a page loads: script sources, stylesheets, icons, images (not the links a reader may follow). */
const assetReferences = (html: string) =>
  [...html.matchAll(/<(?:script|img|link)\b[^>]*\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
const ids = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));

describe('DocsSite', () => {
  it('serves every page as HTML and its Markdown twin, with their content types', () => {
    expect(site.pages.map((page) => page.path)).toEqual(
      expect.arrayContaining(['/docs', '/docs/errors', '/docs/api', '/docs/client', '/docs/mcp']),
    );
    for (const page of site.pages) {
      expect(site.respond(page.path)?.headers['Content-Type']).toBe(CONTENT_TYPES.html);
      expect(site.respond(page.twinPath)?.headers['Content-Type']).toBe(CONTENT_TYPES.markdown);
      expect(text(page.path)).toContain(`<link rel="alternate" type="text/markdown" href="${page.twinPath}"`);
    }
    expect(site.respond('/docs/nope')).toBeUndefined();
    expect(site.respond('/docs/errors.html')).toBeUndefined();
  });

  it('has one section per error code on the errors page, anchored by the code: every doc_url resolves', () => {
    const errors = site.pages.find((page) => page.slug === 'errors')!;
    for (const code of ERROR_CODES) {
      const url = new URL(errorDocUrl(BASE, code));
      expect(url.pathname).toBe(errors.path);
      expect(errors.anchors).toContain(url.hash.slice(1));
      expect(ids(text(url.pathname)).has(code)).toBe(true);
    }
  });

  it('links only to pages and anchors that exist (the guides, their twins, the API reference)', () => {
    // beside the site, the gateway serves the OpenAPI document and the dashboard on the same host
    const known = new Set([...site.paths(), '/openapi.yaml', '/dashboard/']);
    const broken: string[] = [];
    for (const page of site.pages) {
      for (const href of references(text(page.path))) {
        if (href.startsWith('data:')) continue;
        const url = new URL(href, `${BASE}${page.path}`);
        if (url.origin !== BASE) continue; // a link out of the site (a guide may cite a specification)
        const target = url.pathname === page.path && href.startsWith('#') ? page.path : url.pathname;
        if (!known.has(target)) broken.push(`${page.path} -> ${href}`);
        else if (url.hash && !ids(text(target)).has(decodeURIComponent(url.hash.slice(1))))
          broken.push(`${page.path} -> ${href} (no such anchor)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('loads only assets of this host on every page', () => {
    for (const page of site.pages)
      for (const ref of assetReferences(text(page.path)))
        expect([page.path, ref]).toEqual([page.path, expect.stringMatching(/^(\/(?!\/)|data:)/)]);
  });

  it(
    'loads only assets of this host on the API reference, Swagger ' +
      'UI from the npm package, with no call to the online ' +
      'validator',
    () => {
      const html = text('/docs/api');
      const assets = references(html).filter((ref) => !ref.startsWith('#') && !ref.startsWith('data:'));
      for (const ref of assets) expect(ref).toMatch(/^\/(docs|openapi\.yaml)/);
      const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
      expect(scripts).toEqual([
        expect.stringMatching(/^\/docs\/assets\/[0-9a-f]{12}\/swagger-ui-bundle\.js$/),
        expect.stringMatching(/^\/docs\/assets\/[0-9a-f]{12}\/api-reference\.js$/),
      ]);
      const initializer = text(scripts[1]!);
      expect(initializer).toContain('url: "/openapi.yaml"');
      expect(initializer).toContain('validatorUrl: null');
      expect(text(scripts[0]!)).toContain('SwaggerUIBundle');
      const css = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => text(m[1]!)).join('\n');
      const outside = [...css.matchAll(/url\(\s*['"]?([^'")]+)/g)]
        .map((m) => m[1]!)
        .filter((url) => !url.startsWith('data:'));
      expect(outside).toEqual([]);
      expect(css).not.toMatch(/@import|@font-face/);
      expect(site.respond('/docs/api')?.headers['Content-Security-Policy']).toMatch(
        /default-src 'none'; script-src 'self'/,
      );
    },
  );

  it("summarises every operation of the OpenAPI document in the API reference's twin", () => {
    const markdown = text('/docs/api.md');
    for (const [path, item] of Object.entries(buildOpenApiDocument().paths)) {
      for (const method of Object.keys(item)) expect(markdown).toContain(`### ${method.toUpperCase()} /v1${path}`);
    }
    expect(markdown).toContain('[/openapi.yaml](/openapi.yaml)');
    expect(markdown).toContain('[`rate_limited`](errors.md#rate_limited)');
  });

  it('fills in the host: examples name PUBLIC_BASE_URL', () => {
    expect(text('/docs/quick-start.md')).toContain(`B=${BASE}/v1`);
    expect(text('/docs/errors.md')).toContain(`"doc_url": "${BASE}/docs/errors#unknown_filter"`);
    expect(text('/docs/quick-start.md')).not.toContain('{{');
    expect(text('/docs/quick-start.md')).toContain(`(${BASE}/dashboard/)`);
  });

  it('lists every page on the index and its twin, whose relative links resolve under /docs/', () => {
    const twin = text('/docs/index.md');
    for (const page of site.pages.filter((p) => p.slug !== 'index')) expect(twin).toContain(`(${page.slug}.md)`);
    expect(site.respond('/docs.md')).toEqual({
      status: 308,
      headers: expect.objectContaining({ Location: '/docs/index.md' }),
    });
    expect(site.respond('/docs/')?.headers['Location']).toBe('/docs');
  });

  it('caches: pages for five minutes with an ETag (304 when it matches), assets for a year under their hash', () => {
    const page = site.respond('/docs/errors')!;
    expect(page.headers['Cache-Control']).toBe('public, max-age=300');
    const etag = page.headers['ETag']!;
    const notModified = site.respond('/docs/errors', { ifNoneMatch: etag });
    expect([notModified?.status, notModified?.body]).toEqual([304, undefined]);
    expect(site.respond('/docs/errors', { ifNoneMatch: etag.replace(/^W\//, '') })?.status).toBe(304);
    expect(site.respond('/docs/errors', { ifNoneMatch: 'W/"other"' })?.status).toBe(200);
    const asset = site.paths().find((path) => path.endsWith('swagger-ui-bundle.js'))!;
    expect(site.respond(asset)?.headers['Cache-Control']).toBe('public, max-age=31536000, immutable');
  });

  it('gzips for a client that accepts it, the same bytes unzipped', () => {
    const asset = site.paths().find((path) => path.endsWith('swagger-ui-bundle.js'))!;
    const plain = site.respond(asset)!;
    const zipped = site.respond(asset, { acceptEncoding: 'br, gzip' })!;
    expect(zipped.headers['Content-Encoding']).toBe('gzip');
    expect(zipped.body!.length).toBeLessThan(plain.body!.length / 2);
    expect(gunzipSync(zipped.body!).equals(plain.body!)).toBe(true);
    expect(plain.headers['Vary']).toBe('Accept-Encoding');
    expect([acceptsGzip('gzip;q=0'), acceptsGzip('deflate'), acceptsGzip('*'), acceptsGzip(undefined)]).toEqual([
      false,
      false,
      true,
      false,
    ]);
  });

  it('renders a guides folder of another branch: a replaced page needs no code change', () => {
    const dir = mkdtempSync(join(tmpdir(), 'guides-'));
    writeFileSync(join(dir, 'nav.yaml'), '- index\n- client\n');
    writeFileSync(join(dir, 'index.md'), '# Home\n\nSee [the client](client.md#install).\n');
    writeFileSync(join(dir, 'client.md'), '# The client\n\n## Install\n\n`npm install`\n');
    const other = DocsSite.build({ openApi: buildOpenApiDocument(), publicBaseUrl: BASE, guidesDir: dir });
    expect(other.pages.map((page) => [page.path, page.title])).toEqual([
      ['/docs', 'Home'],
      ['/docs/client', 'The client'],
      ['/docs/api', 'API reference'],
    ]);
    expect(other.respond('/docs')?.body?.toString()).toContain('href="/docs/client#install"');
    expect(other.pages[1]!.anchors).toContain('install');
  });
});
