import { decodeHTML } from 'entities';

/** Every HTML 5 named and numeric entity (`&eacute;`, `&#8212;`, `&nbsp;`), by the parser's own library. */
function decodeEntities(text: string): string {
  return decodeHTML(text).replace(/\u00a0/g, ' ');
}

function tidy(text: string): string | null {
  const out = text
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return out === '' ? null : out;
}

/** HTML to plain text: block elements become line breaks, list items "- ", entities decoded. */
export function htmlToText(html: string | null | undefined): string | null {
  if (!html) return null;
  const text = html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li[^>]*>/gi, '\n- ')
    .replace(/<\/li>/gi, '')
    .replace(/<\/(p|div|h[1-6]|ul|ol|tr|section|article)>/gi, '\n')
    .replace(/<(p|div|h[1-6]|ul|ol|tr|section|article)(\s[^>]*)?>/gi, '\n')
    .replace(/<[^>]+>/g, '');
  return tidy(decodeEntities(text));
}

/** Markdown to plain text: emphasis, headings, links and code marks removed; list items kept as "- ". */
export function markdownToText(markdown: string | null | undefined): string | null {
  if (!markdown) return null;
  const text = markdown
    .replace(/```[^\n]*\n([\s\S]*?)```/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/^\s*[*+]\s+/gm, '- ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^*\w])[*_](\S(?:[^*_\n]*\S)?)[*_](?=[^*\w]|$)/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1');
  return tidy(text);
}
