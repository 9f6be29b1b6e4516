import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { get, pageAt, type Page } from './api.js';
import { Empty, Loaded, useLoad, type Load } from './ui.js';

/** A list the server hands out a page at a time, each page with the cursor of the next. */
export interface CursorPages<T> {
  page: Load<Page<T>>;
  /** 1 on the first page. */
  number: number;
  onFirstPage: boolean;
  back: () => void;
  forward: (next: string) => void;
  /** Reads the page shown again. */
  reload: () => void;
  toFirstPage: () => void;
}

/**
 * The pages of the list at `path` (which may carry a query of its own), the first one shown first;
 * `param` is the query parameter the list reads its cursor from (`since` for the event feed).
 */
export function useCursorPages<T>(path: string, param = 'cursor'): CursorPages<T> {
  // the trail of cursors that led to the page shown (empty on the first page, the last one the
  // page's own), so going back needs no cursor of its own
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const [page, reload] = useLoad(() => get<Page<T>>(pageAt(path, cursor, param)), [path, cursor]);
  return {
    page,
    number: cursors.length + 1,
    onFirstPage: cursors.length === 0,
    back: () => setCursors(cursors.slice(0, -1)),
    forward: (next) => setCursors([...cursors, next]),
    reload,
    toFirstPage: () => setCursors([]),
  };
}

/**
 * The page shown of a cursor-paged list, through its loading and error states: `children(rows)`, or
 * `empty` in words when there are none; then the pager, named `pager` for assistive technology.
 */
export function PagedList<T>({
  pages,
  what,
  empty,
  pager,
  pagerOnlyWhenPaged = false,
  children,
}: {
  pages: CursorPages<T>;
  /** What is loading, in words ("the ledger"). */
  what: string;
  /** Said when the page has no rows; without it, `children` shows even an empty page. */
  empty?: ComponentChildren;
  pager: string;
  /** No pager while the whole list fits on one page (a list nested in another's row). */
  pagerOnlyWhenPaged?: boolean;
  children: (rows: T[]) => ComponentChildren;
}) {
  return (
    <Loaded load={pages.page} what={what}>
      {({ data, next_cursor }) => (
        <>
          {empty !== undefined && data.length === 0 ? <Empty>{empty}</Empty> : children(data)}
          {(!pagerOnlyWhenPaged || !pages.onFirstPage || next_cursor) && (
            <CursorPager pages={pages} next={next_cursor} label={pager} />
          )}
        </>
      )}
    </Loaded>
  );
}

/** Every list's pager says the same: which page this is, and the page before and after it. */
function CursorPager<T>({ pages, next, label }: { pages: CursorPages<T>; next: string | null; label: string }) {
  return (
    <nav aria-label={label} class="row-actions pager">
      <button type="button" class="secondary" disabled={pages.onFirstPage} onClick={pages.back}>
        Previous page
      </button>
      <span class="muted">Page {pages.number}</span>
      <button type="button" class="secondary" disabled={!next} onClick={() => next && pages.forward(next)}>
        Next page
      </button>
    </nav>
  );
}
