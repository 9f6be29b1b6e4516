import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';

const PREFIX = 'cur_';
const MAC_BYTES = 16;
/** base64url length of the MAC: it closes the cursor, so no separator is needed. */
const MAC_CHARS = Math.ceil((MAC_BYTES * 4) / 3);

/**
 * Opaque, tamper-proof cursors: `cur_` + base64url(JSON position) + a truncated HMAC-SHA256
 * of it (fixed length, URL-safe throughout). Clients cannot read, build or alter one; a cursor from one listing
 * (the `scope`) is refused by another. Every scope names the account the listing belongs to, so a
 * cursor minted for one account is refused for any other. The position is checked against the
 * listing's schema when decoded: a cursor signed with a leaked or old secret still cannot carry
 * values the listing's query was not written for.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {
    if (secret.length < 16) throw new Error('cursor secret must be at least 16 characters');
  }

  encode(scope: string, position: unknown): string {
    const body = Buffer.from(JSON.stringify(position)).toString('base64url');
    return `${PREFIX}${body}${this.mac(scope, body)}`;
  }

  /** The position, or null when the cursor was not issued by us for this scope or does not fit the schema. */
  decode<S extends z.ZodType>(scope: string, cursor: string, schema: S): z.infer<S> | null {
    if (!cursor.startsWith(PREFIX)) return null;
    const rest = cursor.slice(PREFIX.length);
    if (rest.length <= MAC_CHARS) return null;
    const body = rest.slice(0, -MAC_CHARS);
    const mac = rest.slice(-MAC_CHARS);
    const expected = Buffer.from(this.mac(scope, body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let position: unknown;
    try {
      position = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    const parsed = schema.safeParse(position);
    return parsed.success ? parsed.data : null;
  }

  private mac(scope: string, body: string): string {
    return createHmac('sha256', this.secret)
      .update(`${scope}\n${body}`)
      .digest()
      .subarray(0, MAC_BYTES)
      .toString('base64url');
  }
}
