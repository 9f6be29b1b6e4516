import type { z } from 'zod';
import { NormalizedProviderRecordSchema, type NormalizedProviderRecord, type ProviderSlug } from '@jobs/contracts';
import { ProviderResponseError, type ProviderQuery } from './provider-adapter.js';

export interface Page<C> {
  items: unknown[];
  /** Where the next page starts, or null when this was the last. */
  next: C | null;
  /** How many postings the provider says match the whole query, when it says. */
  total?: number;
}

/** How a provider's listing is paged, and how its items become records. */
export interface Listing<C> {
  /** Where the first page starts (page 0 or 1, offset 0, no token). */
  first: C;
  /** The largest page the provider serves. */
  maxPageSize: number;
  fetchPage: (cursor: C, pageSize: number) => Promise<Page<C>>;
  /** An item as a record, or null to skip it. */
  map: (raw: unknown, seenAt: string) => NormalizedProviderRecord | null;
  /** Pages addressed by number or offset: where the page `pages` pages after `cursor` starts. */
  seek?: (cursor: C, pages: number, pageSize: number) => C;
}

/** What one read of a listing wants: its part of the provider query. */
export type ListingRead = Pick<ProviderQuery, 'want' | 'paging' | 'parallelPages'>;

/**
 * Pages through a provider until `want` records are collected or it has no more pages. The
 * page size stays the same for the whole search (page-number paging depends on it). Items the
 * mapper rejects are skipped (counted in `paging.skipped` of a resumed read).
 *
 * With `paging` (a resumed read), it starts at `paging.start` with that page size, keeps every
 * record of the pages it read (the next read starts after them, so none is lost) and leaves the
 * next page's position in `paging.next`.
 *
 * With `seek` (a provider whose pages are addressed by number or offset) and `parallelPages` > 1,
 * the pages the wanted records fill are asked side by side, up to `parallelPages` at a time: an
 * async chunk of 200 records from a provider of 25 per page costs one page's latency, not eight.
 * The pages are then taken in order exactly as if read one by one: reading stops at an empty page
 * or the last one, and a page whose `next` is not where `seek` said (a short page mid-listing)
 * continues from its own `next`, the pages asked after it unused.
 */
export async function collectPages<C>(
  { want, paging, parallelPages }: ListingRead,
  { first, maxPageSize, fetchPage, map, seek }: Listing<C>,
): Promise<NormalizedProviderRecord[]> {
  const parallel = seek ? (parallelPages ?? 1) : 1;
  const records: NormalizedProviderRecord[] = [];
  const pageSize = paging?.start?.page_size ?? Math.max(1, Math.min(maxPageSize, want));
  let cursor: C | null = paging?.start ? (paging.start.cursor as C) : first;
  while (cursor !== null && records.length < want) {
    const from: C = cursor;
    const count = parallel > 1 ? Math.min(parallel, Math.ceil((want - records.length) / pageSize)) : 1;
    const at = (i: number): C => (i === 0 ? from : seek!(from, i, pageSize));
    const pages: Array<Page<C>> =
      count === 1
        ? [await fetchPage(from, pageSize)]
        : await Promise.all(Array.from({ length: count }, (_, i) => fetchPage(at(i), pageSize)));
    for (let i = 0; i < pages.length; i++) {
      const page = pages[i]!;
      if (paging && page.total !== undefined) (paging.totals ??= []).push(page.total);
      const seenAt = new Date().toISOString();
      for (const raw of page.items) {
        const record = map(raw, seenAt);
        if (record) records.push(record);
        else if (paging) paging.skipped = (paging.skipped ?? 0) + 1;
      }
      cursor = page.items.length === 0 ? null : page.next;
      // the next page asked side by side is only taken when it is where this page says the listing goes on
      if (cursor === null || i + 1 >= pages.length || cursor !== at(i + 1)) break;
    }
  }
  if (paging) {
    paging.next =
      cursor === null || cursor === undefined ? null : { cursor: cursor as string | number, page_size: pageSize };
    return records;
  }
  return records.slice(0, want);
}

/** A page of the provider read against its schema: a page of another shape is the provider's error. */
export function parsePage<S extends z.ZodType>(provider: ProviderSlug, schema: S, body: unknown): z.output<S> {
  const page = schema.safeParse(body);
  if (!page.success) throw new ProviderResponseError(provider, 200, `${provider} page has an unexpected shape`);
  return page.data;
}

/**
 * The record when it satisfies the contract (enums, ISO codes, URLs, dates), else null. The NUL
 * character is taken out of its text first: a provider may send it (`\u0000` in JSON), and
 * PostgreSQL's text cannot hold it, so a record carrying one could never be stored.
 */
export function validRecord(record: NormalizedProviderRecord): NormalizedProviderRecord | null {
  const parsed = NormalizedProviderRecordSchema.safeParse(withoutNul(record));
  return parsed.success ? parsed.data : null;
}

/** `value` with every NUL character taken out of its strings; the same value when it holds none. */
export function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return (value.includes('\u0000') ? value.replaceAll('\u0000', '') : value) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => withoutNul(item));
    return (items.some((item, i) => item !== value[i]) ? items : value) as T;
  }
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const clean = withoutNul(item);
    if (clean !== item) changed = true;
    return [key, clean] as const;
  });
  return (changed ? Object.fromEntries(entries) : value) as T;
}

/** `seek` of a provider paged by page number: the page `pages` after `page`. */
export const byPage = (page: number, pages: number): number => page + pages;
/** `seek` of a provider paged by offset: the offset `pages` whole pages after `offset`. */
export const byOffset = (offset: number, pages: number, pageSize: number): number => offset + pages * pageSize;
