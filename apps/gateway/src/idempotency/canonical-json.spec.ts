import { ApiError } from '../http/api-error.js';
import { bodyFingerprint } from './canonical-json.js';

describe('body fingerprint', () => {
  it('is the same for the same body in another key order', () => {
    expect(bodyFingerprint({ limit: 5, filters: { title_or: ['x'], remote: true } })).toBe(
      bodyFingerprint({ filters: { remote: true, title_or: ['x'] }, limit: 5 }),
    );
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

  it('answers a body too deep to canonicalise with invalid_request, not a stack overflow', () => {
    let body: unknown = 1;
    for (let i = 0; i < 100_000; i++) body = { a: body };
    expect(() => bodyFingerprint(body)).toThrow(ApiError);
    try {
      bodyFingerprint(body);
    } catch (error) {
      expect((error as ApiError).code).toBe('invalid_request');
    }
  });
});
