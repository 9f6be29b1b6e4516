/**
 * Seeded randomness without `Math.random`: a 32-bit hash for "a value per (seed, thing,
 * time bucket)" and mulberry32 for short sequences drawn from one such hash.
 */

/** murmur3's finaliser: a good 32-bit avalanche. */
export function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash of up to five integers (numbers beyond 32 bits are folded first); allocation-free. */
export function hash32(a: number, b = 0, c = 0, d = 0, e = 0): number {
  let h = step(0x9e3779b9, a);
  h = step(h, b);
  h = step(h, c);
  h = step(h, d);
  return step(h, e);
}

function step(h: number, part: number): number {
  const folded = (part >>> 0) ^ (Math.floor(part / 4294967296) >>> 0);
  return mix32(((h ^ folded) + 0x7f4a7c15 + Math.imul(h, 31)) >>> 0);
}

/** A hash mapped to [0, 1). */
export function unit(a: number, b = 0, c = 0, d = 0, e = 0): number {
  return hash32(a, b, c, d, e) / 4294967296;
}

/** FNV-1a of a string: turns tags and slugs into hash inputs. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a tiny, fast, seedable generator with a 2^32 period. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Float in [min, max). */
  range(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  /** Index drawn with the given (non-negative) weights. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let x = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i] as number;
      if (x < 0) return i;
    }
    return weights.length - 1;
  }
}

/** Index into a cumulative weight table (binary search): O(log n) weighted picks. */
export function pickCumulative(cumulative: Float64Array, x: number): number {
  const target = x * (cumulative[cumulative.length - 1] as number);
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((cumulative[mid] as number) > target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
