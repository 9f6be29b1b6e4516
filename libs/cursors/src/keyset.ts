/**
 * Keyset paging: a listing reads one row more than its page (`take: limit + 1`), serves the
 * first `limit`, and continues after the last row served, by its position in the listing's
 * order (never an offset: rows written meanwhile neither repeat nor vanish between pages).
 */

/** A page of a keyset listing: its rows, whether more follow, and the last row served. */
export interface KeysetPage<T> {
  rows: T[];
  more: boolean;
  last: T | undefined;
}

/** The page of a read of up to `limit + 1` rows: the first `limit`, and whether the extra one came. */
export function keysetPage<T>(rows: readonly T[], limit: number): KeysetPage<T> {
  const page = rows.slice(0, limit);
  return { rows: page, more: rows.length > limit, last: page[page.length - 1] };
}

/** The cursor of the page after this one (`cursorOf` its last row), or null when none follows. */
export function nextCursorOf<T>(page: KeysetPage<T>, cursorOf: (last: T) => string): string | null {
  return page.more && page.last !== undefined ? cursorOf(page.last) : null;
}

/** A row's place in a newest-first listing: its creation time, then its id. */
export interface NewestFirstPosition {
  at: Date;
  id: string;
}

/** Newest first, ties by id: the order `newestFirstAfter` continues (a Prisma `orderBy`). */
export const NEWEST_FIRST: [{ createdAt: 'desc' }, { id: 'desc' }] = [{ createdAt: 'desc' }, { id: 'desc' }];

/**
 * The rows after `after` in `NEWEST_FIRST` order, as a Prisma `where` fragment; every row without a position.
 * The `createdAt <= at` beside the OR says nothing new, but it is what PostgreSQL starts an index range
 * at: without it, a deep page reads every newer row of the listing again and filters it out.
 */
export function newestFirstAfter(after: NewestFirstPosition | null | undefined): {
  createdAt?: { lte: Date };
  OR?: [{ createdAt: { lt: Date } }, { createdAt: Date; id: { lt: string } }];
} {
  return after
    ? {
        createdAt: { lte: after.at },
        OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }],
      }
    : {};
}
