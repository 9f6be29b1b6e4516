import type { NormalizedProviderRecord } from '@jobs/contracts';
import {
  mapOwnIndex,
  mapProviderA,
  mapProviderB,
  mapProviderC,
  mapProviderD,
  mapProviderE,
  mapProviderF,
} from '@jobs/provider-adapters';
import type { ProviderSlug, ProviderView } from '@jobs/sim-world';

type Json = Record<string, unknown>;

interface Paging {
  /** The request of page `cursor` (undefined: the first). */
  request(cursor: string | undefined): { query?: Json; body?: Json };
  /** The page's items and the next cursor (null: last page). */
  read(body: Json, cursor: string | undefined): { items: unknown[]; next: string | null };
  map(raw: unknown, seenAt: string): NormalizedProviderRecord | null;
}

const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((v, k) => (v as Json | undefined)?.[k], value);
const offsetNext = (offset: string | undefined, count: number, total: number): string | null => {
  const next = Number(offset ?? 0) + count;
  return count > 0 && next < total ? String(next) : null;
};

/** Each provider's own paging, exactly as the HTTP API answers it. */
const PAGING: Record<ProviderSlug, Paging> = {
  own_index: {
    request: (c) => ({ query: { offset: c ?? '0', limit: '100' } }),
    read: (b) => ({ items: b['data'] as unknown[], next: b['next_offset'] === null ? null : String(b['next_offset']) }),
    map: mapOwnIndex,
  },
  provider_a: {
    request: (c) => ({ query: { page: c ?? '1', per_page: '100' } }),
    read: (b) => ({ items: b['results'] as unknown[], next: b['next_page'] === null ? null : String(b['next_page']) }),
    map: mapProviderA,
  },
  provider_b: {
    request: (c) => ({ query: { offset: c ?? '0', limit: '50' } }),
    read: (b, c) => ({
      items: b['jobs'] as unknown[],
      next: offsetNext(c, (b['jobs'] as unknown[]).length, b['total_count'] as number),
    }),
    map: mapProviderB,
  },
  provider_c: {
    request: (c) => ({ query: { pageSize: '100', ...(c ? { pageToken: c } : {}) } }),
    read: (b) => ({ items: b['jobs'] as unknown[], next: (b['nextPageToken'] as string | null) ?? null }),
    map: mapProviderC,
  },
  provider_d: {
    request: (c) => ({ query: { page: c ?? '0', page_size: '25' } }),
    read: (b, c) => {
      const page = Number(c ?? 0);
      return {
        items: at(b, 'data', 'items') as unknown[],
        next: page + 1 < (at(b, 'data', 'pages') as number) ? String(page + 1) : null,
      };
    },
    map: mapProviderD,
  },
  provider_e: {
    request: (c) => ({ query: { start: c ?? '0', rows: '50' } }),
    read: (b, c) => {
      const docs = at(b, 'response', 'docs') as unknown[];
      return { items: docs, next: offsetNext(c, docs.length, at(b, 'response', 'numFound') as number) };
    },
    map: mapProviderE,
  },
  provider_f: {
    request: (c) => ({ body: { limit: 100, ...(c ? { cursor: c } : {}) } }),
    read: (b) => ({
      items: at(b, 'data', 'postings') as unknown[],
      next: (at(b, 'data', 'cursor', 'next') as string | null) ?? null,
    }),
    map: mapProviderF,
  },
};

export interface ProviderListing {
  provider: ProviderSlug;
  /** Items the provider sent. */
  raw: number;
  /** Records its adapter produced (an unreadable item is dropped, as in the fetcher). */
  records: NormalizedProviderRecord[];
}

/** Every item a provider lists at `atMs`, page by page through its own API, through the real adapter mapper. */
export function fetchListing(view: ProviderView, atMs: number): ProviderListing {
  const paging = PAGING[view.slug];
  const seenAt = new Date(atMs).toISOString();
  const records: NormalizedProviderRecord[] = [];
  let raw = 0;
  let cursor: string | undefined;
  for (;;) {
    const response = view.search(paging.request(cursor), atMs);
    if (response.status !== 200)
      throw new Error(`${view.slug} answered ${response.status}: ${JSON.stringify(response.body)}`);
    const page = paging.read(response.body as Json, cursor);
    raw += page.items.length;
    for (const item of page.items) {
      const record = paging.map(item, seenAt);
      if (record) records.push(record);
    }
    if (page.next === null || page.items.length === 0) break;
    cursor = page.next;
  }
  return { provider: view.slug, raw, records };
}
