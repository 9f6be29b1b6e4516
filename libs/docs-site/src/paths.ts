/** Every page of the site lives under this path of the API's host (the API itself is under /v1). */
export const DOCS_ROOT = '/docs';

/** The reserved slug of the generated API reference page (no Markdown file in guides/). */
export const API_REFERENCE_SLUG = 'api';

/** A page's own address: `/docs` for the index, `/docs/<slug>` otherwise. */
export function pagePath(slug: string): string {
  return slug === 'index' ? DOCS_ROOT : `${DOCS_ROOT}/${slug}`;
}

/**
 * A page's Markdown twin: `/docs/<slug>.md`; the index's is `/docs/index.md` (not `/docs.md`, which
 * redirects there), so the relative links of a guide (`errors.md#rate_limited`) resolve the same
 * in every twin as in the guides folder.
 */
export function twinPath(slug: string): string {
  return `${DOCS_ROOT}/${slug}.md`;
}

/**
 * Where a link of a guide goes in the HTML site: a sibling guide (`errors.md#not_found`) becomes
 * its page (`/docs/errors#not_found`); anything else (absolute, root-relative, a bare anchor) is
 * left as written.
 */
export function htmlHref(href: string): string {
  const sibling = /^(?:\.\/)?([a-z0-9][a-z0-9-]*)\.md(#.*)?$/.exec(href);
  if (!sibling) return href;
  return `${pagePath(sibling[1]!)}${sibling[2] ?? ''}`;
}
