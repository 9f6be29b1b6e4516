import { anyKeywordMatches, titleWords } from '@jobs/job-filters';
import { normalizeDomain } from './domains.js';
import type { Entry, Snapshot } from './listing-entries.js';
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
    if (keywords.length > 0 && !anyKeywordMatches(e.titleNorm, keywords)) return false;
    return true;
  };
}

/** Queries whose matches a snapshot keeps (a snapshot lasts a time bucket; most reads ask a few). */
const QUERIES_KEPT = 32;

/**
 * A snapshot's entries matching a query, freshest first, kept while the snapshot lasts: a
 * partner's read asks for page after page of one query, and each page would otherwise test every
 * listing again. A keyword query tests only the entries whose titles have its words (`TitleIndex`).
 */
export function snapshotMatches(snapshot: Snapshot, query: SearchQuery): Entry[] {
  const kept = (snapshot.matches ??= new Map());
  const key = JSON.stringify(query);
  const known = kept.get(key);
  if (known) return known;
  const match = compileQuery(query);
  const candidates = query.titleAny?.length
    ? (snapshot.titles ??= new TitleIndex(snapshot.entries)).candidates(query.titleAny)
    : undefined;
  const found = snapshot.entries.filter(
    (entry, i) => (candidates === undefined || candidates[i] === 1) && match(entry),
  );
  if (kept.size >= QUERIES_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, found);
  return found;
}
