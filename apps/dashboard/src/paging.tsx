import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { get, pageAt, type Page } from './api.js';
import { Empty, Loaded, useLoad, type Load } from './ui.js';

/** A list the server hands out a page at a time, each page with the cursor of the next. */
export interface CursorPages<T> {
  page: Load<Page<T>>;
  onFirstPage: boolean;
  back: () => void;
  forward: (next: string) => void;
  /** Reads the page shown again. */
  reload: () => void;
  toFirstPage: () => void;
}

/** The pages of the list at `path` (which may carry a query of its own), the first one shown first. */
export function useCursorPages<T>(path: string): CursorPages<T> {
  // the trail of cursors that led to the page shown (empty on the first page, the last one the
  // page's own), so going back needs no cursor of its own
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const [page, reload] = useLoad(() => get<Page<T>>(pageAt(path, cursor)), [path, cursor]);
  return {
    page,
    onFirstPage: cursors.length === 0,
    back: () => setCursors(cursors.slice(0, -1)),
    forward: (next) => setCursors([...cursors, next]),
    reload,
    toFirstPage: () => setCursors([]),
  };
}

/** The pager's name for assistive technology and the words on its two buttons. */
export interface PagerWords {
  label: string;
  back: string;
  forward: string;
}

/**
 * The page shown of a cursor-paged list, through its loading and error states: `children(rows)`, or
 * `empty` in words when there are none; then the pager.
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
  pager: PagerWords;
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
            <CursorPager pages={pages} next={next_cursor} words={pager} />
          )}
        </>
      )}
    </Loaded>
  );
}

function CursorPager<T>({ pages, next, words }: { pages: CursorPages<T>; next: string | null; words: PagerWords }) {
  return (
    <nav aria-label={words.label} class="row-actions">
      <button type="button" class="secondary" disabled={pages.onFirstPage} onClick={pages.back}>
        {words.back}
      </button>
      <button type="button" class="secondary" disabled={!next} onClick={() => next && pages.forward(next)}>
        {words.forward}
      </button>
    </nav>
  );
}
