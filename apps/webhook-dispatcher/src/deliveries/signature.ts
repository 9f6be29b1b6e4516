/**
 * `Service-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>">`
 * (interface.md, Delivery). The HMAC key is the endpoint's secret exactly as the admin API
 * returns it (its UTF-8 bytes, `whsec_` prefix included). Pure.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The suggested receiver tolerance between `t` and the receiver's clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function signatureOf(secret: string, timestampSeconds: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.`).update(rawBody).digest('hex');
}

/**
 * The header value for a body signed at `timestampSeconds`: one `v1` per secret, in the order
 * given. During a rotation's overlap that is the new secret, then the replaced one
 * (`t=…,v1=<new>,v1=<old>`), so a receiver holding either accepts the delivery.
 */
export function signatureHeader(
  secrets: string | readonly string[],
  timestampSeconds: number,
  rawBody: string | Buffer,
): string {
  if (!Number.isInteger(timestampSeconds) || timestampSeconds < 0)
    throw new RangeError('timestamp must be whole unix seconds');
  const keys = typeof secrets === 'string' ? [secrets] : secrets;
  if (keys.length === 0) throw new RangeError('at least one secret signs a delivery');
  return [
    `t=${timestampSeconds}`,
    ...keys.map((secret) => `v1=${signatureOf(secret, timestampSeconds, rawBody)}`),
  ].join(',');
}

export type SignatureCheck =
  { valid: true; timestamp: number } | { valid: false; reason: 'malformed' | 'mismatch' | 'stale' };

/**
 * What a receiver does (interface.md, Delivery 3): split on `,`, each part on the first `=`,
 * compare hex to hex in constant time, refuse a `t` more than `toleranceSeconds` from its clock.
 * Any `v1` part that matches is enough (room for several secrets during a rotation).
 */
export function verifySignature(
  header: string,
  secret: string,
  rawBody: string | Buffer,
  nowSeconds: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): SignatureCheck {
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (name === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    if (name === 'v1') candidates.push(value);
  }
  if (timestamp === undefined || candidates.length === 0) return { valid: false, reason: 'malformed' };
  const expected = Buffer.from(signatureOf(secret, timestamp, rawBody), 'utf8');
  const matches = candidates.some((candidate) => {
    const given = Buffer.from(candidate, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) return { valid: false, reason: 'mismatch' };
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return { valid: false, reason: 'stale' };
  return { valid: true, timestamp };
}
