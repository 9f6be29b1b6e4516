import { CursorSchema } from '@jobs/contracts';
import { CursorCodec } from '@jobs/cursors';
import { decodeSandboxCursor, encodeSandboxCursor, requestDigest } from './sandbox-cursor.js';

describe('sandbox cursors', () => {
  const codec = new CursorCodec('a-sandbox-test-secret');

  it('round-trip an offset within their scope, in the contract cursor shape', () => {
    for (const offset of [0, 1, 25, 99, 123456]) {
      const cursor = encodeSandboxCursor(codec, 'scope-a', offset);
      expect(CursorSchema.safeParse(cursor).success).toBe(true);
      expect(decodeSandboxCursor(codec, 'scope-a', cursor)).toBe(offset);
    }
  });

  it('refuse another scope, another secret, an altered cursor, another listing\'s cursor and garbage', () => {
    const cursor = encodeSandboxCursor(codec, 'scope-a', 25);
    expect(decodeSandboxCursor(codec, 'scope-b', cursor)).toBeNull();
    expect(decodeSandboxCursor(new CursorCodec('another-secret-value'), 'scope-a', cursor)).toBeNull();
    const altered = `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`;
    expect(decodeSandboxCursor(codec, 'scope-a', altered)).toBeNull();
    expect(decodeSandboxCursor(codec, 'scope-a', codec.encode('ledger:acc_1', { offset: 3 }))).toBeNull();
    expect(decodeSandboxCursor(codec, 'scope-a', 'cur_abc')).toBeNull();
    expect(decodeSandboxCursor(codec, 'scope-a', 'job_123')).toBeNull();
  });

  it('refuse a validly signed position that is not an offset, and never encode a bad offset', () => {
    expect(decodeSandboxCursor(codec, 'scope-a', codec.encode('sandbox.search:scope-a', { offset: -1 }))).toBeNull();
    expect(decodeSandboxCursor(codec, 'scope-a', codec.encode('sandbox.search:scope-a', { offset: '3' }))).toBeNull();
    expect(decodeSandboxCursor(codec, 'scope-a', codec.encode('sandbox.search:scope-a', { offset: 3 }))).toBe(3);
    expect(() => encodeSandboxCursor(codec, 's', -1)).toThrow();
    expect(() => encodeSandboxCursor(codec, 's', 1.5)).toThrow();
  });

  it('digest requests independently of key order', () => {
    expect(requestDigest({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(requestDigest({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(requestDigest({ a: 1 })).not.toBe(requestDigest({ a: 2 }));
    expect(requestDigest({ a: 1, b: undefined })).toBe(requestDigest({ a: 1 }));
  });
});
