import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { OpenApiDocument } from '@jobs/contracts';
import { apiReferenceMarkdown, swaggerInitializer } from './api-reference.js';
import { readGuides } from './guides.js';
import { layout, type NavItem } from './layout.js';
import { renderMarkdown } from './markdown.js';
import { API_REFERENCE_SLUG, DOCS_ROOT, pagePath, twinPath } from './paths.js';

export interface DocsSiteOptions {
  /** The OpenAPI document the API reference renders (the gateway's `/openapi.yaml`). */
  openApi: OpenApiDocument;
  /**
   * PUBLIC_BASE_URL: in a guide, `{{base_url}}` becomes `<it>/v1` (the API's base URL),
   * `{{docs_url}}` `<it>/docs` and `{{dashboard_url}}` `<it>/dashboard/`, so examples and links
   * name the host the reader is on.
   */
  publicBaseUrl: string;
  /** Default: the guides of this library. */
  guidesDir?: string;
  /** Where the browser fetches the OpenAPI document. Default `/openapi.yaml`. */
  openApiPath?: string;
}

export interface DocsPage {
  slug: string;
  title: string;
  /** The HTML page: `/docs` or `/docs/<slug>`. */
  path: string;
  /** Its Markdown twin: `/docs/<slug>.md`. */
  twinPath: string;
  /** The anchors of its headings (the same in the HTML page and, by their headings, in the twin). */
  anchors: readonly string[];
}

/** What the gateway sends for a path of the site. */
export interface DocsResponse {
  status: 200 | 304 | 308;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface DocsRequest {
  ifNoneMatch?: string | undefined;
  acceptEncoding?: string | undefined;
}

interface Entry {
  body: Buffer;
  headers: Record<string, string>;
  etag: string;
  /** Every document is text: gzipped on the first request that accepts it, then kept. */
  gzipped?: Buffer;
}

export const CONTENT_TYPES = {
  html: 'text/html; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
} as const;

/** Pages may change with a release: browsers keep them five minutes, then revalidate by ETag. */
const PAGE_CACHE = 'public, max-age=300';
/** An asset's address carries the hash of its content: it never changes under that address. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';

/**
 * Only this host, for everything a page loads. Swagger UI sets inline `style` attributes and
 * shows inline `data:` SVG icons; the guides need neither.
 */
const GUIDE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const API_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' " +
  "'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SITE_ASSETS_DIR = fileURLToPath(new URL('../assets/', import.meta.url));

/** swagger-ui-dist, from node_modules: the API reference's renderer, served by this host. */
function swaggerUiDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** Weak: the same content gzipped or not is the same page (RFC 9110, 8.8.3). */
const etagOf = (body: Buffer) => `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;

/**
 * The documentation site, rendered once (at the gateway's start): every guide of `guides/` as an
 * HTML page and its Markdown twin, the API reference (Swagger UI over `/openapi.yaml`, and a
 * Markdown summary of the document as its twin), and the assets they load, all from this
 * library and its npm packages. `respond` answers a path from memory.
 */
export class DocsSite {
  private constructor(
    readonly pages: readonly DocsPage[],
    private readonly entries: ReadonlyMap<string, Entry>,
    private readonly redirects: ReadonlyMap<string, string>,
  ) {}

  static build(options: DocsSiteOptions): DocsSite {
    const { guides, order } = readGuides(options.guidesDir);
    if (!guides.some((guide) => guide.slug === 'index'))
      throw new Error('guides/index.md is the home page of /docs: it is missing');
    const host = options.publicBaseUrl.replace(/\/+$/, '');
    const fill = (markdown: string) =>
      markdown
        .replaceAll('{{base_url}}', `${host}/v1`)
        .replaceAll('{{docs_url}}', `${host}${DOCS_ROOT}`)
        .replaceAll('{{dashboard_url}}', `${host}/dashboard/`);
    const openApiPath = options.openApiPath ?? '/openapi.yaml';

    const apiReference = {
      slug: API_REFERENCE_SLUG,
      title: 'API reference',
      markdown: apiReferenceMarkdown(options.openApi),
    };
    const sources = new Map([...guides, apiReference].map((guide) => [guide.slug, guide]));
    const titled = order.map((slug) => sources.get(slug)!);
    const nav: NavItem[] = titled.map((page) => ({
      title: page.slug === 'index' ? 'Overview' : page.title,
      path: pagePath(page.slug),
    }));
    const contents = [
      '',
      '## All pages',
      '',
      ...titled.filter((page) => page.slug !== 'index').map((page) => `- [${page.title}](${page.slug}.md)`),
      '',
    ].join('\n');

    const entries = new Map<string, Entry>();
    const add = (path: string, body: Buffer, headers: Record<string, string>): void => {
      if (entries.has(path)) throw new Error(`two documents at ${path}`);
      entries.set(path, { body, headers, etag: etagOf(body) });
    };
    const asset = (file: string, body: Buffer | string, contentType: string): string => {
      const buffer = Buffer.isBuffer(body) ? body : Buffer.from(body);
      const hash = createHash('sha256').update(buffer).digest('hex').slice(0, 12);
      const path = `${DOCS_ROOT}/assets/${hash}/${file}`;
      add(path, buffer, { 'Content-Type': contentType, 'Cache-Control': ASSET_CACHE });
      return path;
    };
    const siteCss = asset('docs.css', readFileSync(join(SITE_ASSETS_DIR, 'docs.css')), CONTENT_TYPES.css);
    const swagger = swaggerUiDir();
    const swaggerCss = asset('swagger-ui.css', readFileSync(join(swagger, 'swagger-ui.css')), CONTENT_TYPES.css);
    const swaggerJs = asset(
      'swagger-ui-bundle.js',
      readFileSync(join(swagger, 'swagger-ui-bundle.js')),
      CONTENT_TYPES.js,
    );
    const initializer = asset('api-reference.js', swaggerInitializer(openApiPath), CONTENT_TYPES.js);

    const pages: DocsPage[] = [];
    for (const source of titled) {
      const isApi = source.slug === API_REFERENCE_SLUG;
      const markdown = fill(source.markdown) + (source.slug === 'index' ? contents : '');
      const rendered = renderMarkdown(markdown);
      const page: DocsPage = {
        slug: source.slug,
        title: source.title,
        path: pagePath(source.slug),
        twinPath: twinPath(source.slug),
        anchors: rendered.anchors,
      };
      const body = isApi
        ? `<h1 id="api-reference">API reference</h1>\n<p>Rendered from ` +
          `<a href="${openApiPath}">${openApiPath}</a>. The <a ` +
          `href="${page.twinPath}">Markdown twin</a> summarises every ` +
          `operation.</p>\n<div id="swagger-ui"></div>`
        : `<article class="guide">\n${rendered.html}</article>`;
      const html = layout({
        title: source.title,
        path: page.path,
        twinPath: page.twinPath,
        nav,
        body,
        stylesheets: isApi ? [siteCss, swaggerCss] : [siteCss],
        scripts: isApi ? [swaggerJs, initializer] : [],
        wide: isApi,
      });
      const security = {
        'Content-Security-Policy': isApi ? API_CSP : GUIDE_CSP,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
      };
      add(page.path, Buffer.from(html), {
        'Content-Type': CONTENT_TYPES.html,
        'Cache-Control': PAGE_CACHE,
        ...security,
      });
      add(page.twinPath, Buffer.from(markdown), {
        'Content-Type': CONTENT_TYPES.markdown,
        'Cache-Control': PAGE_CACHE,
        'X-Content-Type-Options': 'nosniff',
      });
      pages.push(isApi ? { ...page, anchors: ['api-reference'] } : page);
    }
    const redirects = new Map([
      // `/docs` + `.md` by the twin rule: the index's twin is /docs/index.md, where relative links resolve.
      [`${DOCS_ROOT}.md`, twinPath('index')],
      [`${DOCS_ROOT}/`, DOCS_ROOT],
      [`${DOCS_ROOT}/index`, DOCS_ROOT],
    ]);
    return new DocsSite(pages, entries, redirects);
  }

  /** Every path the site answers 200 for (pages, twins and assets). */
  paths(): string[] {
    return [...this.entries.keys()];
  }

  /** The answer for a path of the site (no query), or undefined for a path it does not have. */
  respond(path: string, request: DocsRequest = {}): DocsResponse | undefined {
    const location = this.redirects.get(path);
    if (location) return { status: 308, headers: { Location: location, 'Cache-Control': PAGE_CACHE } };
    const entry = this.entries.get(path);
    if (!entry) return undefined;
    const headers: Record<string, string> = { ...entry.headers, ETag: entry.etag, Vary: 'Accept-Encoding' };
    if (
      request.ifNoneMatch &&
      request.ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || weak(tag) === weak(entry.etag))
    ) {
      return { status: 304, headers };
    }
    if (acceptsGzip(request.acceptEncoding)) {
      entry.gzipped ??= gzipSync(entry.body, { level: 9 });
      if (entry.gzipped.length < entry.body.length)
        return { status: 200, headers: { ...headers, 'Content-Encoding': 'gzip' }, body: entry.gzipped };
    }
    return { status: 200, headers, body: entry.body };
  }
}

/** Entity tags compare weakly for If-None-Match (RFC 9110, 13.1.2). */
const weak = (tag: string) => tag.trim().replace(/^W\//, '');

/** Whether an Accept-Encoding header accepts gzip (and does not refuse it with q=0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
