import { NormalizedProviderRecordSchema, type NormalizedProviderRecord } from '@jobs/contracts';

export interface Page<C> {
  items: unknown[];
  /** Where the next page starts, or null when this was the last. */
  next: C | null;
}

/**
 * Pages through a provider until `want` records are collected or it has no more pages. The
 * page size stays the same for the whole search (page-number paging depends on it). Items the
 * mapper rejects are skipped.
 */
export async function collectPages<C>(
  want: number,
  first: C,
  fetchPage: (cursor: C, pageSize: number) => Promise<Page<C>>,
  map: (raw: unknown, seenAt: string) => NormalizedProviderRecord | null,
  maxPageSize: number,
): Promise<NormalizedProviderRecord[]> {
  const records: NormalizedProviderRecord[] = [];
  const pageSize = Math.max(1, Math.min(maxPageSize, want));
  let cursor: C | null = first;
  while (cursor !== null && records.length < want) {
    const page: Page<C> = await fetchPage(cursor, pageSize);
    const seenAt = new Date().toISOString();
    for (const raw of page.items) {
      const record = map(raw, seenAt);
      if (record) records.push(record);
    }
    if (page.items.length === 0) break;
    cursor = page.next;
  }
  return records.slice(0, want);
}

/** The record when it satisfies the contract (enums, ISO codes, URLs, dates), else null. */
export function validRecord(record: NormalizedProviderRecord): NormalizedProviderRecord | null {
  const parsed = NormalizedProviderRecordSchema.safeParse(record);
  return parsed.success ? parsed.data : null;
}
