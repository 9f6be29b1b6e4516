import { foldAccents } from './normalize.js';

/** Words per shingle: three-word shingles tell template-built texts apart, two would not. */
export const SHINGLE_WORDS = 3;
/** Shingles kept per text (the smallest hashes, a bottom-k sketch); shorter texts keep all. */
export const SKETCH_SIZE = 128;

/**
 * A bottom-k MinHash sketch of a text's word shingles: the `SKETCH_SIZE` smallest distinct
 * shingle hashes. For texts with at most that many shingles (job ad descriptions usually
 * are) it holds every shingle and similarities are exact; longer texts are estimated.
 */
export interface TextSketch {
  /** Ascending, distinct. */
  readonly hashes: Uint32Array;
  /** Distinct shingles of the whole text. */
  readonly size: number;
  /** The text was cut short ("…"): compare it by containment, not resemblance. */
  readonly truncated: boolean;
}

const TRUNCATION = /(?:…|\.\.\.)\s*$/;

/** Sketch of a description, or null when it has too few words to say anything. */
export function sketchText(text: string | null | undefined): TextSketch | null {
  if (!text) return null;
  const truncated = TRUNCATION.test(text);
  let words = wordHashesOf(foldAccents(text));
  // a cut text may end in half a word
  if (truncated) words--;
  if (words < SHINGLE_WORDS + 2) return null;
  const shingles = new Uint32Array(words - SHINGLE_WORDS + 1);
  for (let i = 0; i < shingles.length; i++) {
    let h = 0x9747b28c;
    for (let j = 0; j < SHINGLE_WORDS; j++) h = mix(h ^ wordBuffer[i + j]!);
    shingles[i] = h;
  }
  shingles.sort();
  let distinct = 0;
  for (let i = 0; i < shingles.length; i++)
    if (i === 0 || shingles[i] !== shingles[i - 1]) shingles[distinct++] = shingles[i]!;
  return { hashes: shingles.slice(0, Math.min(distinct, SKETCH_SIZE)), size: distinct, truncated };
}

/** Word hashes of the text being sketched; grown as needed, reused so sketching allocates little. */
let wordBuffer = new Uint32Array(512);

/**
 * FNV-1a of each lower-cased ASCII word (runs of letters and digits) into `wordBuffer`,
 * scanned character by character: no intermediate strings. Returns the word count.
 */
function wordHashesOf(text: string): number {
  let n = 0;
  let h = 0x811c9dc5;
  let inWord = false;
  for (let i = 0; i <= text.length; i++) {
    let c = i < text.length ? text.charCodeAt(i) : 32;
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      h = Math.imul(h ^ c, 0x01000193);
      inWord = true;
    } else if (inWord) {
      if (n === wordBuffer.length) {
        const grown = new Uint32Array(n * 2);
        grown.set(wordBuffer);
        wordBuffer = grown;
      }
      wordBuffer[n++] = h >>> 0;
      h = 0x811c9dc5;
      inWord = false;
    }
  }
  return n;
}

export interface Resemblance {
  /** |A ∩ B| / |A ∪ B|. */
  jaccard: number;
  /** |A ∩ B| / min(|A|, |B|): how much of the shorter text the longer one contains. */
  containment: number;
}

/**
 * Jaccard by the bottom-k estimator (exact when both sketches hold every shingle), and the
 * containment of the smaller set derived from it and the set sizes.
 */
export function resemblance(a: TextSketch, b: TextSketch): Resemblance {
  const x = a.hashes;
  const y = b.hashes;
  let i = 0;
  let j = 0;
  let seen = 0;
  let both = 0;
  while (seen < SKETCH_SIZE && (i < x.length || j < y.length)) {
    const u = i < x.length ? x[i]! : Infinity;
    const v = j < y.length ? y[j]! : Infinity;
    if (u === v) {
      both++;
      i++;
      j++;
    } else if (u < v) i++;
    else j++;
    seen++;
    // past the end of one truncated sketch the union is no longer known exactly
    if ((i === x.length && a.size > x.length) || (j === y.length && b.size > y.length)) break;
  }
  const jaccard = seen === 0 ? 0 : both / seen;
  const intersection = (jaccard * (a.size + b.size)) / (1 + jaccard);
  return { jaccard, containment: Math.min(1, intersection / Math.min(a.size, b.size)) };
}

/**
 * murmur3 finalizer: spreads the bits so the smallest hashes are a uniform sample. The simulator
 * has the same finalizer (libs/sim-world prng.ts `mix32`): the matcher shares no code with the
 * world it is measured against.
 */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
