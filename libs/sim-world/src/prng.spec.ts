import { Rng, hash32, pickCumulative, unit } from './prng.js';
import {
  decodeProviderJobId,
  encodeProviderJobId,
  packListingKey,
  permute32,
  unpackListingKey,
  unpermute32,
} from './provider-ids.js';
import { PROVIDER_SLUGS } from './types.js';

describe('prng', () => {
  it('repeats the same sequence for the same seed and differs for another', () => {
    const a = new Rng(7);
    const b = new Rng(7);
    const c = new Rng(8);
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
    expect(seqA.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('hashes deterministically, and every argument matters', () => {
    expect(hash32(1, 2, 3)).toBe(hash32(1, 2, 3));
    expect(hash32(1, 2, 3)).not.toBe(hash32(1, 2, 4));
    expect(hash32(1, 2 ** 40)).not.toBe(hash32(1, 0));
    expect(unit(5)).toBeGreaterThanOrEqual(0);
    expect(unit(5)).toBeLessThan(1);
  });

  it('picks from a cumulative table in proportion to the weights', () => {
    const table = new Float64Array([1, 1, 4]);
    expect(pickCumulative(table, 0.1)).toBe(0);
    expect(pickCumulative(table, 0.5)).toBe(2);
  });
});

describe('provider ids', () => {
  it('is a bijection of 32-bit keys', () => {
    for (const x of [0, 1, 0xffff, 0x12345678, 0xffffffff]) expect(unpermute32(permute32(x, 99), 99)).toBe(x);
  });

  it('round-trips every format and rejects foreign ids', () => {
    const packed = packListingKey(12_345, 678, 3);
    expect(unpackListingKey(packed)).toEqual({ slot: 12_345, periodLow: 678, adminReposts: 3 });
    // A market of 160,000 requisitions and the control API's slots above it fit, periods wrap at 1,024.
    expect(unpackListingKey(packListingKey(262_143, 1_024 + 5, 17))).toEqual({
      slot: 262_143,
      periodLow: 5,
      adminReposts: 1,
    });
    expect(() => packListingKey(262_144, 0, 0)).toThrow(RangeError);
    const ids = PROVIDER_SLUGS.map((slug) => encodeProviderJobId(42, slug, packed));
    expect(new Set(ids).size).toBe(PROVIDER_SLUGS.length);
    PROVIDER_SLUGS.forEach((slug, i) => {
      expect(decodeProviderJobId(42, slug, ids[i]!)).toBe(packed);
      expect(decodeProviderJobId(43, slug, ids[i]!)).not.toBe(packed);
    });
    expect(decodeProviderJobId(42, 'provider_a', 'not-an-id')).toBeNull();
    expect(ids[1]).toMatch(/^A-\d{10}$/);
    expect(ids[3]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
