/**
 * The anchor of a heading: its text in lower case, accents dropped, punctuation removed, words
 * joined by `-`. `_` is kept, so the heading of an error code is the code itself
 * (`## rate_limited` -> `#rate_limited`, what every error's `doc_url` points at).
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_\s-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '-');
}

/** Gives each heading a distinct anchor in page order, as GitHub does: the second `Example` is `example-2`. */
export class SlugCounter {
  private readonly seen = new Map<string, number>();

  next(text: string): string {
    const base = slugify(text) || 'section';
    const count = (this.seen.get(base) ?? 0) + 1;
    this.seen.set(base, count);
    return count === 1 ? base : `${base}-${count}`;
  }
}
