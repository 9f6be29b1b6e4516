import { escapeHtml } from './markdown.js';

export interface NavItem {
  title: string;
  path: string;
}

export interface LayoutInput {
  title: string;
  /** The page's own path, marked as current in the navigation. */
  path: string;
  twinPath: string;
  nav: readonly NavItem[];
  /** Rendered HTML of the page body. */
  body: string;
  stylesheets: readonly string[];
  scripts: readonly string[];
  /** A wider main column (the API reference). */
  wide?: boolean;
}

export const SITE_NAME = 'Job Data API';

/**
 * The page frame: the navigation on the left, the page on the right, the Markdown twin linked
 * from the head (`rel="alternate"`) and the foot. Every asset is a path of this host; the empty
 * `data:` icon keeps browsers from asking for `/favicon.ico`.
 */
export function layout(page: LayoutInput): string {
  const nav = page.nav
    .map((item) => {
      const current = item.path === page.path ? ' aria-current="page"' : '';
      return `<li><a href="${escapeHtml(item.path)}"${current}>${escapeHtml(item.title)}</a></li>`;
    })
    .join('\n');
  const header =
    `<header class="site-header"><a class="brand" href="/docs">${SITE_NAME}</a> ` +
    `<span class="tagline">documentation</span></header>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} · ${SITE_NAME} documentation</title>
<link rel="icon" href="data:,">
${page.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('\n')}
<link rel="alternate" type="text/markdown" href="${escapeHtml(page.twinPath)}" title="This page as Markdown">
</head>
<body>
${header}
<div class="site">
<nav class="site-nav" aria-label="Documentation">
<ul>
${nav}
</ul>
<p class="site-nav-extra"><a href="/openapi.yaml">openapi.yaml</a></p>
</nav>
<main class="page${page.wide ? ' page-wide' : ''}">
${page.body}
<footer class="page-footer"><a href="${escapeHtml(page.twinPath)}">This page as Markdown</a></footer>
</main>
</div>
${page.scripts.map((src) => `<script src="${escapeHtml(src)}"></script>`).join('\n')}
</body>
</html>
`;
}
