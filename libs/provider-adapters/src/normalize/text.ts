import { Parser } from 'htmlparser2';

/** Elements whose start and end are line breaks in the text. */
const BLOCKS = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'tr', 'section', 'article']);
/** Elements whose content is no text at all. */
const HIDDEN = new Set(['script', 'style']);

function tidy(text: string): string | null {
  const out = text
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return out === '' ? null : out;
}

/**
 * HTML to plain text: block elements become line breaks, list items "- ", scripts and styles
 * dropped, every HTML 5 entity decoded. Read by htmlparser2's tokenizer, in one pass whatever the
 * markup: a description is a stranger's text (a real board's), and the regular expressions this
 * replaced took seconds on a few hundred kilobytes of unclosed tags.
 */
export function htmlToText(html: string | null | undefined): string | null {
  if (!html) return null;
  const parts: string[] = [];
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (HIDDEN.has(name)) hidden += 1;
        else if (name === 'br') parts.push('\n');
        else if (name === 'li') parts.push('\n- ');
        else if (BLOCKS.has(name)) parts.push('\n');
      },
      ontext(text) {
        if (hidden === 0) parts.push(text);
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        else if (BLOCKS.has(name)) parts.push('\n');
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return tidy(parts.join('').replace(/\u00a0/g, ' '));
}

/** Markdown to plain text: emphasis, headings, links and code marks removed; list items kept as "- ". */
export function markdownToText(markdown: string | null | undefined): string | null {
  if (!markdown) return null;
  const text = markdown
    .replace(/```[^\n]*\n([\s\S]*?)```/g, '$1')
    // within a line: a \s that crossed lines would scan every blank line below each one
    .replace(/^#{1,6}[ \t]+/gm, '')
    .replace(/^[ \t]*[*+][ \t]+/gm, '- ')
    // bounded and within a line: unbounded, every "[" or "(" without its closing would scan to
    // the end of the text, and a text of many took seconds
    .replace(/!\[([^\]\n]{0,1000})\]\([^)\n]{0,2048}\)/g, '$1')
    .replace(/\[([^\]\n]{1,1000})\]\([^)\n]{0,2048}\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^*\w])[*_](\S(?:[^*_\n]*\S)?)[*_](?=[^*\w]|$)/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1');
  return tidy(text);
}
