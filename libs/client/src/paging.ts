/**
 * Cursor paging as async iterators (interface.md "Pagination rules"): cursors are opaque, a
 * `next_cursor` of null is the last page, and the next page is asked with the cursor of the
 * previous one. The sender of a page decides where the cursor goes (JSON body, `cursor` or
 * `since` query); these helpers only walk.
 */

export interface CursorPage {
  next_cursor: string | null;
}

/**
 * Pages from `fetchPage(cursor)`, the first with `start` (undefined: from the beginning), until a
 * page says `next_cursor: null`, or `done()` says the walk has had what it may (a spent budget).
 * A cursor answered twice in a row would loop for ever: it ends the walk with an error instead.
 */
export async function* walkPages<P extends CursorPage>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  start?: string,
  done?: () => boolean,
): AsyncGenerator<P, void, undefined> {
  let cursor = start;
  for (;;) {
    const page = await fetchPage(cursor);
    yield page;
    if (page.next_cursor === null || done?.()) return;
    if (page.next_cursor === cursor)
      throw new Error(`the API answered the cursor it was sent (${cursor}): paging stopped`);
    cursor = page.next_cursor;
  }
}

/** Every item of every page, in order. */
export async function* itemsOf<T>(pages: AsyncIterable<{ data: readonly T[] }>): AsyncGenerator<T, void, undefined> {
  for await (const page of pages) yield* page.data;
}

/**
 * A walk's spending cap: what is left of `total` after the credits its pages charged. Each page
 * may charge at most what is left (`capFor`), and never more than its own per-page cap.
 */
export class CreditBudget {
  private charged = 0;

  constructor(private readonly total: number) {}

  /** `waterfall.max_credits` for the next page: the remainder, or the page's own cap when lower. */
  capFor(pageCap: number | undefined): number {
    const left = Math.max(0, this.total - this.charged);
    return pageCap === undefined ? left : Math.min(left, pageCap);
  }

  spend(credits: number): void {
    this.charged += credits;
  }

  /** Nothing is left to spend. */
  spent(): boolean {
    return this.charged >= this.total;
  }
}
