import { bodyFingerprint, canonicalJson } from './canonical-json.js';

describe('canonical JSON', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it('renders absent values like JSON does', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });
});

describe('body fingerprint', () => {
  it('is the same for the same body in another key order', () => {
    expect(bodyFingerprint({ limit: 5, filters: { title_or: ['x'], remote: true } })).toBe(bodyFingerprint({ filters: { remote: true, title_or: ['x'] }, limit: 5 }));
  });

  it('differs when any value differs, including types', () => {
    const base = bodyFingerprint({ limit: 5 });
    expect(bodyFingerprint({ limit: 6 })).not.toBe(base);
    expect(bodyFingerprint({ limit: '5' })).not.toBe(base);
    expect(bodyFingerprint({ limit: 5, dry_run: false })).not.toBe(base);
  });

  it('treats a missing body as null and is a sha256 hex digest', () => {
    expect(bodyFingerprint(undefined)).toBe(bodyFingerprint(null));
    expect(bodyFingerprint({})).toMatch(/^[0-9a-f]{64}$/);
    expect(bodyFingerprint({})).not.toBe(bodyFingerprint(null));
  });
});
