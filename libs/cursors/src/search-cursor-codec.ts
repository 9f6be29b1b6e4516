import { SearchCursorPositionSchema, searchCursorScope, type SearchCursorPosition } from '@jobs/contracts';
import { CursorCodec } from './cursor-codec.js';

/**
 * A sync search's `next_cursor`, the one codec for it: billing mints it (the page length is
 * decided there, where `waterfall.max_credits` may cut the page) and search-orchestrator reads it
 * back to serve the next page. Both hold this class, built with the same `CURSOR_SECRET`, so the
 * scope (`search:<account>`) and the position's schema cannot drift apart between them.
 */
export class SearchCursorCodec {
  private readonly codec: CursorCodec;

  constructor(secret: string) {
    this.codec = new CursorCodec(secret);
  }

  /** The cursor of `position`, valid for `accountId` only. */
  mint(accountId: string, position: SearchCursorPosition): string {
    return this.codec.encode(searchCursorScope(accountId), position);
  }

  /** The position, or null when the cursor was not minted for `accountId` or was altered. */
  read(accountId: string, cursor: string): SearchCursorPosition | null {
    return this.codec.decode(searchCursorScope(accountId), cursor, SearchCursorPositionSchema);
  }
}
