import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { API_REFERENCE_SLUG } from './paths.js';

/** The guides shipped with this library: `libs/docs-site/guides/*.md` (beside `src/` and `dist/`). */
export const GUIDES_DIR = fileURLToPath(new URL('../guides/', import.meta.url));

/** The order of the navigation: `guides/nav.yaml`, a list of slugs (`api` is the API reference). */
export const NAV_FILE = 'nav.yaml';

export interface GuideSource {
  /** The file name without `.md`: the page's path segment. */
  slug: string;
  /** The text of the file's first `# ` heading. */
  title: string;
  markdown: string;
}

const SLUG = /^[a-z0-9][a-z0-9-]*$/;

/** The first ATX `# ` heading of a Markdown file, outside fenced code. */
export function firstHeading(markdown: string): string | undefined {
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^# +(.+?)\s*#*\s*$/.exec(line);
    if (heading) return heading[1]!.replace(/`/g, '');
  }
  return undefined;
}

/**
 * Every `*.md` of the folder, in the order of its `nav.yaml`; a guide the list does not name
 * still renders, after the listed ones, by title (so a page added or replaced by another branch
 * needs no code change). A guide needs a `# ` title; its file name is its address.
 */
export function readGuides(dir: string = GUIDES_DIR): { guides: GuideSource[]; order: string[] } {
  const guides: GuideSource[] = [];
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()) {
    const slug = file.slice(0, -'.md'.length);
    if (!SLUG.test(slug) || slug === API_REFERENCE_SLUG)
      throw new Error(
        `guides/${file}: a guide's file name is its address: ` +
          `lower-case letters, digits and '-', not ` +
          `'${API_REFERENCE_SLUG}'`,
      );
    const markdown = readFileSync(join(dir, file), 'utf8');
    const title = firstHeading(markdown);
    if (!title) throw new Error(`guides/${file} has no '# ' title`);
    guides.push({ slug, title, markdown });
  }
  const listed = parse(readFileSync(join(dir, NAV_FILE), 'utf8')) as unknown;
  if (!Array.isArray(listed) || !listed.every((slug) => typeof slug === 'string'))
    throw new Error(`guides/${NAV_FILE} is a list of page slugs`);
  return { guides, order: navOrder(listed, guides) };
}

/** The slugs of every page in navigation order: the listed ones that exist, then the rest by title. */
export function navOrder(listed: readonly string[], guides: readonly GuideSource[]): string[] {
  const known = new Set([...guides.map((guide) => guide.slug), API_REFERENCE_SLUG]);
  const order = [...new Set(listed)].filter((slug) => known.has(slug));
  const rest = guides
    .filter((guide) => !order.includes(guide.slug))
    .sort((a, b) => a.title.localeCompare(b.title))
    .map((guide) => guide.slug);
  const all = [...order, ...rest];
  if (!all.includes(API_REFERENCE_SLUG)) all.push(API_REFERENCE_SLUG);
  // The index is the site's home page: always first.
  return all.includes('index') ? ['index', ...all.filter((slug) => slug !== 'index')] : all;
}
