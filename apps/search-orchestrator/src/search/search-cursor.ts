/** What a sync search's `next_cursor` carries (signed, opaque to clients). */
export interface SearchCursor {
  /** The result set (the first page's search id). */
  set: string;
  offset: number;
  fingerprint: string;
}

export const SEARCH_CURSOR_CODEC = Symbol('SEARCH_CURSOR_CODEC');

export const searchCursorScope = (accountId: string) => `search:${accountId}`;
