/**
 * The event feed's pages (GET /events), oldest first by feed position. Pure.
 *
 * `next_cursor`: a page that returns events always carries the cursor of its last event, also
 * when it reached the end of the feed, so a client that stores it can later ask
 * `GET /events?since=<it>` and receive exactly the events stored since (interface.md: the last
 * stored next_cursor recovers missed events). A page with no events has `next_cursor: null`: the
 * client has read everything and keeps the cursor it sent. So a loop "while next_cursor" stops
 * after one empty page, and nothing is ever skipped or repeated.
 */
import type { CursorCodec } from '@jobs/cursors';
import { z } from 'zod';

/** the feed position (a bigint) of the last event served, as a decimal string */
const FeedPositionSchema = z.strictObject({ p: z.string().regex(/^\d{1,19}$/) });
export type FeedPosition = z.infer<typeof FeedPositionSchema>;

/** Whose feed: an account's events of one key mode. */
export interface FeedOwner {
  accountId: string;
  mode: 'live' | 'test';
}

/**
 * A feed's cursor scope: the account and the key mode, so a cursor of the test feed never reads
 * the live one (positions are shared by both modes: a test cursor would skip the live events
 * before it). The live feed keeps the scope its cursors always had.
 */
export const feedScope = ({ accountId, mode }: FeedOwner): string =>
  mode === 'live' ? `events:${accountId}` : `events:${accountId}:test`;

/** The position after which a page starts: 0 without `since`, null when `since` is not this feed's. */
export function positionAfter(codec: CursorCodec, owner: FeedOwner, since: string | undefined): bigint | null {
  if (since === undefined) return 0n;
  const decoded =
    codec.decode(feedScope(owner), since, FeedPositionSchema) ??
    // the test feed's cursors issued before its scope was its own
    (owner.mode === 'test' ? codec.decode(feedScope({ ...owner, mode: 'live' }), since, FeedPositionSchema) : null);
  return decoded ? BigInt(decoded.p) : null;
}

/** The cursor to continue after a page whose last event is at `lastPosition` (null: empty page). */
export function nextCursor(codec: CursorCodec, owner: FeedOwner, lastPosition: bigint | null): string | null {
  return lastPosition === null
    ? null
    : codec.encode(feedScope(owner), { p: lastPosition.toString() } satisfies FeedPosition);
}
