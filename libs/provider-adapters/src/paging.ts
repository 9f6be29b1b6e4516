import { NormalizedProviderRecordSchema, type NormalizedProviderRecord } from '@jobs/contracts';
import type { ResumablePaging } from './provider-adapter.js';

export interface Page<C> {
  items: unknown[];
  /** Where the next page starts, or null when this was the last. */
  next: C | null;
  /** How many postings the provider says match the whole query, when it says. */
  total?: number;
}

/**
 * Pages through a provider until `want` records are collected or it has no more pages. The
 * page size stays the same for the whole search (page-number paging depends on it). Items the
 * mapper rejects are skipped.
 *
 * With `paging` (a resumed read), it starts at `paging.start` with that page size, keeps every
 * record of the pages it read (the next read starts after them, so none is lost) and leaves the
 * next page's position in `paging.next`.
 */
export async function collectPages<C>(
  want: number,
  first: C,
  fetchPage: (cursor: C, pageSize: number) => Promise<Page<C>>,
  map: (raw: unknown, seenAt: string) => NormalizedProviderRecord | null,
  maxPageSize: number,
  paging?: ResumablePaging,
): Promise<NormalizedProviderRecord[]> {
  const records: NormalizedProviderRecord[] = [];
  const pageSize = paging?.start?.page_size ?? Math.max(1, Math.min(maxPageSize, want));
  let cursor: C | null = paging?.start ? (paging.start.cursor as C) : first;
  while (cursor !== null && records.length < want) {
    const page: Page<C> = await fetchPage(cursor, pageSize);
    if (paging && page.total !== undefined) (paging.totals ??= []).push(page.total);
    const seenAt = new Date().toISOString();
    for (const raw of page.items) {
      const record = map(raw, seenAt);
      if (record) records.push(record);
    }
    cursor = page.items.length === 0 ? null : page.next;
  }
  if (paging) {
    paging.next = cursor === null || cursor === undefined ? null : { cursor: cursor as string | number, page_size: pageSize };
    return records;
  }
  return records.slice(0, want);
}

/** The record when it satisfies the contract (enums, ISO codes, URLs, dates), else null. */
export function validRecord(record: NormalizedProviderRecord): NormalizedProviderRecord | null {
  const parsed = NormalizedProviderRecordSchema.safeParse(record);
  return parsed.success ? parsed.data : null;
}
