/**
 * A sync search's `next_cursor`: what it carries and who may read it. Shared by the two services
 * that handle it: billing mints it (it is the one that decides how long a page is, because
 * `waterfall.max_credits` may cut the page short) and search-orchestrator reads it back to serve
 * the next page from the stored result set. Both use `SearchCursorCodec` of `@jobs/cursors`
 * (`CURSOR_SECRET`, the scope `searchCursorScope(account_id)`).
 */
import { z } from 'zod';
import { NonNegativeIntSchema } from '../public/common.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';

/** The signed position inside a `next_cursor` (opaque to clients). */
export const SearchCursorPositionSchema = z.strictObject({
  /** The stored result set: the search id of the page that started it. */
  set: SearchCorrelationIdSchema,
  /** Index in the result set of the next page's first job. */
  offset: NonNegativeIntSchema,
  /** The request the pages belong to (account, filters, waterfall, limit). */
  fingerprint: z.string().min(1),
});
export type SearchCursorPosition = z.infer<typeof SearchCursorPositionSchema>;

/**
 * Where the page being charged sits in its stored result set, so billing can point the next
 * cursor right after the last job it actually returns. Null when nothing can follow (the page is
 * the whole set and no cap can cut it), and then no result set was stored.
 */
export const SearchContinuationSchema = z.strictObject({
  set: SearchCorrelationIdSchema,
  fingerprint: z.string().min(1),
  /** Index in the result set of this page's first job. */
  page_start: NonNegativeIntSchema,
  /** How many jobs the result set holds so far. */
  set_size: NonNegativeIntSchema,
  /** Some provider may still hold matching jobs beyond the set: the set grows when a page reaches its end. */
  more: z.boolean(),
});
export type SearchContinuation = z.infer<typeof SearchContinuationSchema>;

/** The cursor scope: a search cursor is valid only for the account it was issued to. */
export const searchCursorScope = (accountId: string): string => `search:${accountId}`;
