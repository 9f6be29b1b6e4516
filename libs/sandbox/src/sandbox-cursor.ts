/**
 * Sandbox paging cursors: the workspace's signed cursors (`@jobs/cursors`, HMAC with
 * `CURSOR_SECRET`) holding an offset, scoped to the request they page through. The scope is a
 * digest of the request's filters, waterfall and limit, so a cursor cannot be altered, forged
 * without the secret, or replayed against a different search.
 */
import { digestOf, type CursorCodec } from '@jobs/cursors';

/** A stable digest of any JSON value: object keys are sorted, so key order never matters. */
export function requestDigest(value: unknown): string {
  return digestOf(value, 'base64url');
}

const scopeOf = (requestScope: string) => `sandbox.search:${requestScope}`;

/** A cursor to the row at `offset` of the search identified by `requestScope`. */
export function encodeSandboxCursor(codec: CursorCodec, requestScope: string, offset: number): string {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new Error(`invalid cursor offset ${offset}`);
  return codec.encode(scopeOf(requestScope), { offset });
}

/** The offset, or null when the cursor was not issued by the sandbox for this very search. */
export function decodeSandboxCursor(codec: CursorCodec, requestScope: string, cursor: string): number | null {
  const position = codec.decode<{ offset?: unknown }>(scopeOf(requestScope), cursor);
  const offset = position?.offset;
  return typeof offset === 'number' && Number.isSafeInteger(offset) && offset >= 0 ? offset : null;
}
