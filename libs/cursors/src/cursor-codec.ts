import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'cur_';
const MAC_BYTES = 16;
/** base64url length of the MAC: it closes the cursor, so no separator is needed. */
const MAC_CHARS = Math.ceil((MAC_BYTES * 4) / 3);

/**
 * Opaque, tamper-proof cursors: `cur_` + base64url(JSON position) + a truncated HMAC-SHA256
 * of it (fixed length, URL-safe throughout). Clients cannot read, build or alter one; a cursor from one listing
 * (the `scope`) is refused by another.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {
    if (secret.length < 16) throw new Error('cursor secret must be at least 16 characters');
  }

  encode(scope: string, position: unknown): string {
    const body = Buffer.from(JSON.stringify(position)).toString('base64url');
    return `${PREFIX}${body}${this.mac(scope, body)}`;
  }

  /** The position, or null when the cursor was not issued by us for this scope. */
  decode<T>(scope: string, cursor: string): T | null {
    if (!cursor.startsWith(PREFIX)) return null;
    const rest = cursor.slice(PREFIX.length);
    if (rest.length <= MAC_CHARS) return null;
    const body = rest.slice(0, -MAC_CHARS);
    const mac = rest.slice(-MAC_CHARS);
    const expected = Buffer.from(this.mac(scope, body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
    } catch {
      return null;
    }
  }

  private mac(scope: string, body: string): string {
    return createHmac('sha256', this.secret).update(`${scope}\n${body}`).digest().subarray(0, MAC_BYTES).toString('base64url');
  }
}
