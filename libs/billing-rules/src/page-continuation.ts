import type { SearchContinuation, SearchCursorPosition } from '@jobs/contracts';

export interface ContinuationInput {
  /** Where the page sits in its stored result set; null when nothing can follow it. */
  continuation: SearchContinuation | null;
  /** The page's jobs as the orchestrator assembled them, in order. */
  pageJobIds: readonly string[];
  /** The jobs billing returns: a prefix of the page (the cap cuts it, never skips inside it). */
  returnedJobIds: ReadonlySet<string>;
}

/**
 * Where the next page starts: right after the last job this page actually returns. The page
 * length is decided only here, when `max_credits` stops the results (planCharges), so the
 * cursor is minted here too: a page cut at the cap is continued from the cut, and paging a
 * result set with a cap is as gap-free and repeat-free as without one.
 *
 * Null when the set is exhausted and no provider has more, and when a cap cut the page to nothing
 * (a cap of 0 before a job not yet paid for): the same request would answer the same empty page
 * again forever. An empty page that nothing cut (the providers brought nothing new in time)
 * keeps its place while a provider has more: the next request reads on from where they stopped.
 */
export function nextCursorPosition(input: ContinuationInput): SearchCursorPosition | null {
  const { continuation, pageJobIds, returnedJobIds } = input;
  if (!continuation) return null;
  let returned = 0;
  while (returned < pageJobIds.length && returnedJobIds.has(pageJobIds[returned]!)) returned += 1;
  // an empty page: nothing was cut, the providers had nothing new in time, and may have more
  if (returned === 0)
    return pageJobIds.length === 0 && continuation.more
      ? { set: continuation.set, offset: continuation.page_start, fingerprint: continuation.fingerprint }
      : null;
  const offset = continuation.page_start + returned;
  // past the set's end only when a provider may still hold more: the orchestrator grows the set then
  return offset < continuation.set_size || continuation.more
    ? { set: continuation.set, offset, fingerprint: continuation.fingerprint }
    : null;
}
