import { fnv1a, hash32, mix32 } from './prng.js';
import { SIM_PROVIDERS } from './providers/sim-providers.js';
import type { ProviderSlug } from './types.js';

/** Bits of a listing key: the slot (up to 262,144 requisitions), the period's low bits, admin re-listings. */
const SLOT_BITS = 18;
const PERIOD_BITS = 10;
const REPOST_BITS = 4;
/** Periods last 20-75 days, so 1,024 of them name one unambiguously for over 50 years. */
export const PERIOD_MODULUS = 1 << PERIOD_BITS;
export const MAX_LISTING_SLOTS = 1 << SLOT_BITS;

/**
 * A listing key packs (slot, period, admin reposts) into 32 bits; each provider scrambles it
 * with its own keyed permutation and prints it in its own id format. Ids are therefore
 * stable for a seed, differ between providers, change on every re-listing, and can be
 * decoded again for the ground truth — in any process with the same seed.
 */
export function packListingKey(slot: number, period: number, adminReposts: number): number {
  if (slot < 0 || slot >= MAX_LISTING_SLOTS)
    throw new RangeError(`slot ${slot} is outside 0..${MAX_LISTING_SLOTS - 1}`);
  return (
    ((slot << (PERIOD_BITS + REPOST_BITS)) |
      ((period & (PERIOD_MODULUS - 1)) << REPOST_BITS) |
      (adminReposts & ((1 << REPOST_BITS) - 1))) >>>
    0
  );
}

/** The slot, the period modulo PERIOD_MODULUS and the admin re-listings modulo 16 of a listing key. */
export function unpackListingKey(packed: number): { slot: number; periodLow: number; adminReposts: number } {
  return {
    slot: packed >>> (PERIOD_BITS + REPOST_BITS),
    periodLow: (packed >>> REPOST_BITS) & (PERIOD_MODULUS - 1),
    adminReposts: packed & ((1 << REPOST_BITS) - 1),
  };
}

/** Four-round Feistel network on 16-bit halves: a keyed bijection of 32-bit integers. */
export function permute32(value: number, key: number): number {
  let l = value >>> 16;
  let r = value & 0xffff;
  for (let i = 0; i < 4; i++) {
    const next = l ^ roundFn(r, key, i);
    l = r;
    r = next;
  }
  return ((l << 16) | r) >>> 0;
}

export function unpermute32(value: number, key: number): number {
  let l = value >>> 16;
  let r = value & 0xffff;
  for (let i = 3; i >= 0; i--) {
    const prev = r ^ roundFn(l, key, i);
    r = l;
    l = prev;
  }
  return ((l << 16) | r) >>> 0;
}

function roundFn(half: number, key: number, round: number): number {
  return mix32(half ^ key ^ Math.imul(round + 1, 0x9e3779b1)) & 0xffff;
}

export function providerKey(seed: number, slug: ProviderSlug): number {
  return hash32(seed, fnv1a(slug));
}

export function encodeProviderJobId(seed: number, slug: ProviderSlug, packed: number): string {
  const key = providerKey(seed, slug);
  return SIM_PROVIDERS[slug].ids.encode(permute32(packed, key), key);
}

/** The listing key behind a provider job id, or null when the id is not one this provider issued. */
export function decodeProviderJobId(seed: number, slug: ProviderSlug, id: string): number | null {
  const key = providerKey(seed, slug);
  const scrambled = SIM_PROVIDERS[slug].ids.decode(id, key);
  if (scrambled === null || !Number.isInteger(scrambled) || scrambled < 0 || scrambled > 0xffffffff) return null;
  const packed = unpermute32(scrambled, key);
  return encodeProviderJobId(seed, slug, packed) === id ? packed : null;
}
