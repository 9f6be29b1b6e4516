import { collectPages } from './paging.js';
import type { PagePosition, ResumablePaging } from './provider-adapter.js';
import { mapProviderA } from './provider-a.adapter.js';
import { fixture } from './testing/fixture-server.js';

const items: unknown[] = fixture('a.json').results;

describe('collectPages', () => {
  it('keeps one page size for the whole search, capped by the provider', async () => {
    const sizes: number[] = [];
    const records = await collectPages(7, 0, async (n, size) => (sizes.push(size), { items, next: n + 1 }), mapProviderA, 100);
    expect(records).toHaveLength(7);
    expect(sizes).toEqual([7, 7, 7]);
    await collectPages(500, 0, async (n, size) => (sizes.push(size), { items, next: n < 1 ? n + 1 : null }), mapProviderA, 25);
    expect(sizes.slice(3)).toEqual([25, 25]);
  });

  it('skips items the mapper rejects and keeps paging for more', async () => {
    let calls = 0;
    const records = await collectPages(4, 0, async (n) => (calls++, { items: [...items, { broken: true }], next: n + 1 }), mapProviderA, 100);
    expect(records).toHaveLength(4);
    expect(calls).toBe(2);
  });

  it('stops on an empty page even when the provider offers a next one', async () => {
    let calls = 0;
    const records = await collectPages(10, 0, async (n) => (calls++, { items: [], next: n + 1 }), mapProviderA, 100);
    expect(records).toEqual([]);
    expect(calls).toBe(1);
  });
});

describe('collectPages, resumed (async search chunks)', () => {
  /** A provider of 23 items behind page-number paging, 1-based like provider_a. */
  const all = Array.from({ length: 23 }, (_, i) => ({ ...(items[0] as object), id: `a${i}` }));
  const fetchPage = async (page: number, size: number) => {
    const slice = all.slice((page - 1) * size, page * size);
    return { items: slice, next: page * size < all.length ? page + 1 : null };
  };

  it('reads chunk after chunk from where the last one stopped: every record once, then null', async () => {
    const seen: string[] = [];
    let start: PagePosition | null = null;
    for (let chunks = 0; chunks < 20; chunks++) {
      const paging: ResumablePaging = { start };
      const records = await collectPages(7, 1, fetchPage, mapProviderA, 5, paging);
      seen.push(...records.map((r) => r.provider_job_id));
      if (paging.next === null) break;
      expect(paging.next?.page_size).toBe(5);
      start = paging.next ?? null;
    }
    expect(seen).toEqual(all.map((item) => item.id));
  });

  it('keeps whole pages (never drops the tail of the last page read) and keeps the page size it started with', async () => {
    const sizes: number[] = [];
    const paging: ResumablePaging = { start: { cursor: 2, page_size: 4 } };
    const records = await collectPages(5, 1, async (page, size) => (sizes.push(size), fetchPage(page, size)), mapProviderA, 100, paging);
    expect(records.map((r) => r.provider_job_id)).toEqual(['a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10', 'a11']);
    expect(sizes).toEqual([4, 4]);
    expect(paging.next).toEqual({ cursor: 4, page_size: 4 });
  });
});
