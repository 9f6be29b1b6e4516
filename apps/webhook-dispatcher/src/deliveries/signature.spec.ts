import { createHmac } from 'node:crypto';
import { signatureHeader, signatureOf, verifySignature } from './signature.js';

const secret = 'whsec_test-secret-0123456789abcdefghijklmnopqrstu';
const body = '{"id":"evt_1","type":"job.closed","data":{"job":{"id":"job_1","title":"Café ☕ Barista"}}}';

describe('signatureHeader', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> keyed with the secret string', () => {
    const expected = createHmac('sha256', secret).update(`1700000000.${body}`, 'utf8').digest('hex');
    expect(signatureHeader(secret, 1700000000, body)).toBe(`t=1700000000,v1=${expected}`);
    expect(signatureHeader(secret, 1700000000, body)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('signs the exact bytes: a string and its UTF-8 buffer agree, any change of a byte changes it', () => {
    expect(signatureOf(secret, 1, body)).toBe(signatureOf(secret, 1, Buffer.from(body, 'utf8')));
    expect(signatureOf(secret, 1, body)).not.toBe(signatureOf(secret, 1, `${body} `));
    expect(signatureOf(secret, 1, body)).not.toBe(signatureOf(secret, 2, body));
    expect(signatureOf(secret, 1, body)).not.toBe(signatureOf(`${secret}x`, 1, body));
  });

  it('refuses a timestamp that is not whole seconds', () => {
    expect(() => signatureHeader(secret, 1.5, body)).toThrow(RangeError);
    expect(() => signatureHeader(secret, -1, body)).toThrow(RangeError);
  });
});

describe('verifySignature (the receiver side of interface.md)', () => {
  const now = 1_700_000_000;
  const header = signatureHeader(secret, now, body);

  it('accepts the header it was sent, within the tolerance either side', () => {
    expect(verifySignature(header, secret, body, now)).toEqual({ valid: true, timestamp: now });
    expect(verifySignature(header, secret, body, now + 300).valid).toBe(true);
    expect(verifySignature(header, secret, body, now - 300).valid).toBe(true);
  });

  it('refuses a stale or future timestamp beyond 5 minutes', () => {
    expect(verifySignature(header, secret, body, now + 301)).toEqual({ valid: false, reason: 'stale' });
    expect(verifySignature(header, secret, body, now - 301)).toEqual({ valid: false, reason: 'stale' });
  });

  it('refuses another body, another secret, a replayed signature under a new timestamp', () => {
    expect(verifySignature(header, secret, body.replace('job_1', 'job_2'), now)).toEqual({
      valid: false,
      reason: 'mismatch',
    });
    expect(verifySignature(header, 'whsec_other', body, now)).toEqual({ valid: false, reason: 'mismatch' });
    const v1 = header.split(',')[1]!;
    expect(verifySignature(`t=${now + 10},${v1}`, secret, body, now)).toEqual({ valid: false, reason: 'mismatch' });
  });

  it('refuses upper-case hex (hex is compared to hex) and malformed headers', () => {
    expect(
      verifySignature(header.toUpperCase().replace('T=', 't=').replace('V1=', 'v1='), secret, body, now).valid,
    ).toBe(false);
    for (const bad of ['', 'garbage', `v1=${'0'.repeat(64)}`, `t=${now}`, `t=abc,v1=${'0'.repeat(64)}`, '=,='])
      expect(verifySignature(bad, secret, body, now)).toEqual({ valid: false, reason: 'malformed' });
  });

  it('splits each part on the first "=" only and ignores unknown parts', () => {
    expect(verifySignature(`t=${now},v0=abc=def,${header.split(',')[1]!}`, secret, body, now).valid).toBe(true);
  });

  it('accepts when any of several v1 values matches (secret rotation)', () => {
    const [t, v1] = header.split(',');
    expect(verifySignature(`${t},v1=${'a'.repeat(64)},${v1}`, secret, body, now).valid).toBe(true);
  });
});

describe('signatureHeader during a rotation', () => {
  const previous = 'whsec_previous-secret-0123456789abcdefghijklmno';
  it('carries one v1 per secret, the new one first, and either verifies', () => {
    const header = signatureHeader([secret, previous], 1700000000, body);
    expect(header).toBe(
      `t=1700000000,v1=${signatureOf(secret, 1700000000, body)},v1=${signatureOf(previous, 1700000000, body)}`,
    );
    expect(verifySignature(header, secret, body, 1700000000).valid).toBe(true);
    expect(verifySignature(header, previous, body, 1700000000).valid).toBe(true);
    expect(verifySignature(header, 'whsec_neither', body, 1700000000)).toEqual({ valid: false, reason: 'mismatch' });
  });

  it('needs at least one secret', () => {
    expect(() => signatureHeader([], 1, body)).toThrow(RangeError);
  });
});
