import { CanonicalDepthError, canonicalJson, digestOf, MAX_CANONICAL_DEPTH } from './canonical-json.js';

describe('canonical JSON', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it('refuses a value nested past its bound instead of overflowing the stack', () => {
    const deep = (levels: number): unknown => {
      let value: unknown = 1;
      for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
      return value;
    };
    expect(() => canonicalJson(deep(MAX_CANONICAL_DEPTH))).not.toThrow();
    expect(() => canonicalJson(deep(MAX_CANONICAL_DEPTH + 1))).toThrow(CanonicalDepthError);
    expect(() => canonicalJson(deep(1_000_000))).toThrow(CanonicalDepthError);
  });

  it('renders absent values like JSON does', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });
});

describe('digestOf', () => {
  it('is the same for the same value in another key order, in the encoding asked for', () => {
    expect(digestOf({ a: 1, b: [1, 2] }, 'base64url')).toBe(digestOf({ b: [1, 2], a: 1 }, 'base64url'));
    expect(digestOf({}, 'hex')).toMatch(/^[0-9a-f]{64}$/);
  });
});
