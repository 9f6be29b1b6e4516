import { searchTextMatches, titleWords } from '@jobs/job-filters';
import { normalizeDomain } from './domains.js';
import type { Entry } from './listing-entries.js';
import type { SearchQuery } from './types.js';

/**
 * The words of a snapshot's titles, each with the entries whose title has it, built once per
 * snapshot (a provider's snapshot lasts a time bucket). `candidates` answers a keyword filter
 * with a mask over the entries: exactly those `compileQuery`'s keyword test passes (the platform's
 * word-prefix rule, `searchTextMatches` of @jobs/job-filters: each word of a keyword starts a title word).
 */
export class TitleIndex {
  private readonly byWord = new Map<string, number[]>();
  private readonly byPrefix = new Map<string, Uint8Array>();

  constructor(private readonly entries: readonly Entry[]) {
    for (let i = 0; i < entries.length; i++) {
      for (const word of new Set(entries[i]!.titleNorm.split(' ').filter(Boolean))) {
        let at = this.byWord.get(word);
        if (!at) this.byWord.set(word, (at = []));
        at.push(i);
      }
    }
  }

  /** 1 for each entry whose title matches any of the keywords; undefined when none has a word (no keyword filter). */
  candidates(keywords: readonly string[]): Uint8Array | undefined {
    const wordsOf = keywords.map(titleWords).filter((words) => words.length > 0);
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
  const keywords = (q.titleAny ?? []).filter((keyword) => titleWords(keyword).length > 0);
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
    if (keywords.length > 0 && !keywords.some((keyword) => searchTextMatches(e.titleNorm, keyword))) return false;
    return true;
  };
}
