import { collectPages } from './paging.js';
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
