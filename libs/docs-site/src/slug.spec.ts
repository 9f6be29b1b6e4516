import { SlugCounter, slugify } from './slug.js';

describe('slugify', () => {
  it('keeps an error code as it is: the anchor every doc_url names', () => {
    for (const code of ['invalid_request', 'unknown_filter', 'rate_limited', 'internal_error'])
      expect(slugify(code)).toBe(code);
  });

  it('lower-cases, drops punctuation and accents, joins words with -', () => {
    expect(slugify('Quick start')).toBe('quick-start');
    expect(slugify('1. Search the sandbox, no key')).toBe('1-search-the-sandbox-no-key');
    expect(slugify('Plans and what they allow')).toBe('plans-and-what-they-allow');
    expect(slugify('  Café -- déjà vu  ')).toBe('cafe-deja-vu');
    expect(slugify('GET /searches/{id}')).toBe('get-searchesid');
  });
});

describe('SlugCounter', () => {
  it('numbers repeated headings as GitHub does', () => {
    const slugs = new SlugCounter();
    expect(['Example', 'Example', 'Other', 'Example'].map((t) => slugs.next(t))).toEqual([
      'example',
      'example-2',
      'other',
      'example-3',
    ]);
    expect(slugs.next('!!!')).toBe('section');
  });
});
