/**
 * Webhook deliveries, checked exactly as interface.md ("Events", Delivery 2-3) tells receivers:
 *
 * 1. `Service-Signature: t=<unix_seconds>,v1=<lowercase_hex>`: split the header on `,` and each
 *    part on its first `=`;
 * 2. `v1` is the HMAC-SHA256, keyed with the endpoint's secret, of `<t>.<raw body>` (the exact
 *    bytes received: verify before any JSON parsing or re-serialising);
 * 3. compare the expected hex with each given `v1` hex, in constant time (while an endpoint's
 *    secret is being rotated a delivery carries two, the new secret's first: either matches);
 * 4. refuse a `t` further than the tolerance (5 minutes by default) from the receiver's clock.
 *
 * Then the body is parsed with the contracts' event schema into a typed `Event`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { EventSchema, tolerantReaderOf, type Event } from '@jobs/contracts';
import { WebhookVerificationError } from './errors.js';

/** The suggested tolerance between the signature's `t` and the receiver's clock. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

export interface VerifyWebhookSignatureInput {
  /** The raw request body exactly as received (a Buffer is a Uint8Array). */
  payload: string | Uint8Array;
  /** The `Service-Signature` header (Node's `req.headers['service-signature']` fits). */
  signature: string | readonly string[] | null | undefined;
  /** The endpoint's signing secret. */
  secret: string;
  /** Largest accepted distance between `t` and now, in seconds (default 300; `Infinity` turns the check off). */
  toleranceSeconds?: number;
  /** The receiver's clock, ms since the epoch (default `Date.now`). */
  now?: () => number;
}

export interface VerifyWebhookInput extends VerifyWebhookSignatureInput {
  /**
   * Parse the body with the event schema of this client's contracts (default true). Fields the
   * schema does not know (added since this client was built: additions need no new version) are
   * kept and not checked; a body that breaks a known field is refused with `invalid_payload`.
   * With false, the signed JSON is returned as it is, typed but unchecked.
   */
  validate?: boolean;
}

export interface VerifiedSignature {
  /** The signature's `t`, unix seconds. */
  timestamp: number;
}

function headerText(signature: VerifyWebhookSignatureInput['signature']): string | null {
  if (signature === null || signature === undefined) return null;
  if (typeof signature === 'string') return signature;
  return signature.length === 0 ? null : signature.join(',');
}

function bytesOf(payload: string | Uint8Array): Buffer {
  return typeof payload === 'string'
    ? Buffer.from(payload, 'utf8')
    : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
}

/** The `v1` value for a body and timestamp: lowercase hex HMAC-SHA256 of `<t>.<raw body>`. */
export function computeWebhookSignature(
  secret: string,
  timestamp: number | string,
  payload: string | Uint8Array,
): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(bytesOf(payload)).digest('hex');
}

/** A `Service-Signature` header value as the service sends it, e.g. to test a receiver. */
export function signWebhookPayload(input: {
  payload: string | Uint8Array;
  secret: string;
  timestamp?: number;
}): string {
  const t = input.timestamp ?? Math.floor(Date.now() / 1000);
  return `t=${t},v1=${computeWebhookSignature(input.secret, t, input.payload)}`;
}

/**
 * Checks the signature and the timestamp of a delivery; throws `WebhookVerificationError`
 * (answer the delivery with a 4xx then) and returns the signature's timestamp otherwise.
 */
export function verifyWebhookSignature(input: VerifyWebhookSignatureInput): VerifiedSignature {
  const header = headerText(input.signature);
  if (header === null || header.trim() === '')
    throw new WebhookVerificationError('missing_header', 'No Service-Signature header');
  if (!input.secret) throw new TypeError('verifyWebhookSignature: the endpoint secret is empty');

  let t: string | undefined;
  const given: string[] = [];
  for (const rawPart of header.split(',')) {
    const part = rawPart.trim();
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at);
    const value = part.slice(at + 1);
    if (name === 't' && t === undefined) t = value;
    else if (name === 'v1') given.push(value);
  }
  if (t === undefined || !/^\d+$/.test(t) || given.length === 0) {
    throw new WebhookVerificationError('malformed_header', 'Service-Signature must be t=<unix_seconds>,v1=<hex>');
  }

  const expected = Buffer.from(computeWebhookSignature(input.secret, t, input.payload), 'utf8');
  let matched = false;
  for (const candidate of given) {
    const bytes = Buffer.from(candidate, 'utf8');
    // hex to hex, in constant time (lengths differing says nothing about the secret)
    if (bytes.length === expected.length && timingSafeEqual(bytes, expected)) matched = true;
  }
  if (!matched)
    throw new WebhookVerificationError('signature_mismatch', 'No v1 signature matches this body and secret');

  const timestamp = Number(t);
  const tolerance = input.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const nowSeconds = (input.now ?? Date.now)() / 1000;
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `The signature's t is more than ${tolerance} s away from this clock`,
    );
  }
  return { timestamp };
}

/**
 * Verifies a delivery (signature, then timestamp) and returns its typed event; throws
 * `WebhookVerificationError` when the delivery must be refused. Dedupe on `event.id`: events
 * may arrive more than once, and in any order.
 */
export function verifyWebhook(input: VerifyWebhookInput): Event {
  verifyWebhookSignature(input);
  let json: unknown;
  try {
    json = JSON.parse(bytesOf(input.payload).toString('utf8'));
  } catch (cause) {
    throw new WebhookVerificationError('invalid_payload', 'The signed body is not JSON', { cause });
  }
  if (input.validate === false) return json as Event;
  const parsed = tolerantReaderOf(EventSchema).safeParse(json);
  if (!parsed.success) {
    throw new WebhookVerificationError(
      'invalid_payload',
      `The signed body is not an event of this API version: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      { cause: parsed.error },
    );
  }
  return parsed.data;
}
