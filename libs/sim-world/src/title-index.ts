import { normalizeDomain } from './domains.js';
import { normalizeText } from './market.js';
import type { Entry } from './listing-entries.js';
import type { SearchQuery } from './types.js';

/** A keyword as the words each of which must start a word of the title. */
function keywordWords(keyword: string): string[] {
  return normalizeText(keyword).trim().split(' ').filter(Boolean);
}

/**
 * The words of a snapshot's titles, each with the entries whose title has it, built once per
 * snapshot (a provider's snapshot lasts a time bucket). `candidates` answers a keyword filter
 * with a mask over the entries: exactly those `compileQuery`'s keyword test passes (a title word
 * starting with each word of a keyword is what ` ${w}` finds in the normalized title, whose
 * words are single-space separated).
 */
export class TitleIndex {
  private readonly byWord = new Map<string, number[]>();
  private readonly byPrefix = new Map<string, Uint8Array>();

  constructor(private readonly entries: readonly Entry[]) {
    for (let i = 0; i < entries.length; i++) {
      for (const word of new Set(entries[i]!.titleNorm.slice(1).split(' '))) {
        let at = this.byWord.get(word);
        if (!at) this.byWord.set(word, (at = []));
        at.push(i);
      }
    }
  }

  /** 1 for each entry whose title matches any of the keywords; undefined when none has a word (no keyword filter). */
  candidates(keywords: readonly string[]): Uint8Array | undefined {
    const wordsOf = keywords.map(keywordWords).filter((words) => words.length > 0);
    if (wordsOf.length === 0) return undefined;
    const mask = new Uint8Array(this.entries.length);
    for (const words of wordsOf) {
      const masks = words.map((w) => this.prefixMask(w));
      for (let i = 0; i < mask.length; i++) if (mask[i] === 0 && masks.every((m) => m[i] === 1)) mask[i] = 1;
    }
    return mask;
  }

  /** The entries with a title word starting with `prefix`, remembered for the snapshot's life. */
  private prefixMask(prefix: string): Uint8Array {
    let mask = this.byPrefix.get(prefix);
    if (mask) return mask;
    mask = new Uint8Array(this.entries.length);
    for (const [word, at] of this.byWord) if (word.startsWith(prefix)) for (const i of at) mask[i] = 1;
    // a snapshot meets few distinct keywords; bound it anyway against a caller sending many
    if (this.byPrefix.size < 1024) this.byPrefix.set(prefix, mask);
    return mask;
  }
}

/** A provider search's filters as a test of one entry. */
export function compileQuery(q: SearchQuery): (e: Entry) => boolean {
  const keywords = (q.titleAny ?? []).map(keywordWords).filter((w) => w.length > 0);
  const domains = q.companyDomain
    ? new Set(q.companyDomain.split(',').map(normalizeDomain).filter(Boolean))
    : undefined;
  const country = q.countryCode?.toUpperCase();
  return (e) => {
    if (country !== undefined && e.countryCode !== country) return false;
    if (q.remote !== undefined && e.remote !== q.remote) return false;
    if (q.postedSince !== undefined && e.postedAt < q.postedSince) return false;
    if (q.listedSince !== undefined && e.listedAt < q.listedSince) return false;
    if (domains !== undefined && !domains.has(e.domain)) return false;
    if (keywords.length > 0 && !keywords.some((words) => words.every((w) => e.titleNorm.includes(` ${w}`))))
      return false;
    return true;
  };
}
