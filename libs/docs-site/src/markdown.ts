import MarkdownItCallable, { type Env, type MarkdownIt, type StateCore, type Token } from 'markdown-it';
import { htmlHref } from './paths.js';
import { SlugCounter } from './slug.js';

/** One guide rendered to HTML, with what the site needs to know about it. */
export interface RenderedMarkdown {
  /** The text of the first `# ` heading. */
  title: string | undefined;
  /** The page body (no layout). */
  html: string;
  /** Every heading's anchor, in page order. */
  anchors: string[];
}

interface RenderEnv extends Env {
  anchors?: string[];
  title?: string;
}

/** The visible text of a heading's inline content (`code` spans included, markup dropped). */
function inlineText(token: Token | undefined): string {
  return (token?.children ?? [])
    .filter((child) => child.type === 'text' || child.type === 'code_inline')
    .map((child) => child.content)
    .join('');
}

/** Core rule: every heading gets `id` = its slug (unique in the page); the first h1 is the title. */
function headingIds(state: StateCore): void {
  const env = state.env as RenderEnv;
  const slugs = new SlugCounter();
  env.anchors = [];
  state.tokens.forEach((token, index) => {
    if (token.type !== 'heading_open') return;
    const text = inlineText(state.tokens[index + 1]);
    const id = slugs.next(text);
    token.attrSet('id', id);
    env.anchors!.push(id);
    if (token.tag === 'h1' && env.title === undefined) env.title = text.trim();
  });
}

/**
 * CommonMark plus tables and strikethrough (markdown-it's default preset), with raw HTML off: a
 * guide is Markdown only, so nothing in it can load a script or an outside asset.
 */
function createRenderer(): MarkdownIt {
  const md = new MarkdownItCallable({ html: false, linkify: false, typographer: false });
  md.core.ruler.push('heading_ids', headingIds);
  const renderToken = md.renderer.renderToken.bind(md.renderer);
  md.renderer.rules.link_open = (tokens, index, options) => {
    const token = tokens[index]!;
    const href = token.attrGet('href');
    if (href !== null) token.attrSet('href', htmlHref(String(href)));
    return renderToken(tokens, index, options);
  };
  // A permalink after each heading's text, so a reader can copy a section's address.
  md.renderer.rules.heading_close = (tokens, index, options) => {
    const open = tokens[index - 2];
    const id = open?.attrGet('id');
    const link =
      id && open?.tag !== 'h1'
        ? ` <a class="anchor" href="#${md.utils.escapeHtml(String(id))}" aria-label="Link to this section">#</a>`
        : '';
    return link + renderToken(tokens, index, options);
  };
  return md;
}

const renderer = createRenderer();

/** Renders one guide: links to sibling guides (`errors.md#x`) become site paths (`/docs/errors#x`). */
export function renderMarkdown(markdown: string): RenderedMarkdown {
  const env: RenderEnv = {};
  const html = renderer.render(markdown, env);
  return { title: env.title, html, anchors: env.anchors ?? [] };
}

/** HTML text escaping, for the layout's own strings. */
export function escapeHtml(text: string): string {
  return renderer.utils.escapeHtml(text);
}
