import { examples } from '@jobs/contracts';
import { byOffset, byPage, collectPages, validRecord, withoutNul } from './paging.js';
import type { PagePosition, ResumablePaging } from './provider-adapter.js';
import { mapProviderA } from './provider-a.adapter.js';
import { fixture } from './testing/fixture-server.js';

const items: unknown[] = fixture('a.json').results;
const map = mapProviderA;

describe('collectPages', () => {
  it('keeps one page size for the whole search, capped by the provider', async () => {
    const sizes: number[] = [];
    const records = await collectPages(
      { want: 7 },
      { first: 0, maxPageSize: 100, fetchPage: async (n, size) => (sizes.push(size), { items, next: n + 1 }), map },
    );
    expect(records).toHaveLength(7);
    expect(sizes).toEqual([7, 7, 7]);
    await collectPages(
      { want: 500 },
      {
        first: 0,
        maxPageSize: 25,
        fetchPage: async (n, size) => (sizes.push(size), { items, next: n < 1 ? n + 1 : null }),
        map,
      },
    );
    expect(sizes.slice(3)).toEqual([25, 25]);
  });

  it('skips items the mapper rejects and keeps paging for more', async () => {
    let calls = 0;
    const records = await collectPages(
      { want: 4 },
      {
        first: 0,
        maxPageSize: 100,
        fetchPage: async (n) => (calls++, { items: [...items, { broken: true }], next: n + 1 }),
        map,
      },
    );
    expect(records).toHaveLength(4);
    expect(calls).toBe(2);
  });

  it('stops on an empty page even when the provider offers a next one', async () => {
    let calls = 0;
    const records = await collectPages(
      { want: 10 },
      { first: 0, maxPageSize: 100, fetchPage: async (n) => (calls++, { items: [], next: n + 1 }), map },
    );
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
      const records = await collectPages({ want: 7, paging }, { first: 1, maxPageSize: 5, fetchPage, map });
      seen.push(...records.map((r) => r.provider_job_id));
      if (paging.next === null) break;
      expect(paging.next?.page_size).toBe(5);
      start = paging.next ?? null;
    }
    expect(seen).toEqual(all.map((item) => item.id));
  });

  it(
    'keeps whole pages (never drops the tail of the last page ' + 'read) and keeps the page size it started with',
    async () => {
      const sizes: number[] = [];
      const paging: ResumablePaging = { start: { cursor: 2, page_size: 4 } };
      const records = await collectPages(
        { want: 5, paging },
        { first: 1, maxPageSize: 100, fetchPage: async (page, size) => (sizes.push(size), fetchPage(page, size)), map },
      );
      expect(records.map((r) => r.provider_job_id)).toEqual(['a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10', 'a11']);
      expect(sizes).toEqual([4, 4]);
      expect(paging.next).toEqual({ cursor: 4, page_size: 4 });
    },
  );
});

describe('collectPages, pages side by side (addressable paging)', () => {
  /** 23 items behind offset paging, like provider_b; `short` makes the page at that offset one item short. */
  const all = Array.from({ length: 23 }, (_, i) => ({ ...(items[0] as object), id: `b${i}` }));
  function offsetProvider(short?: number) {
    let inFlight = 0;
    const log = { asked: [] as number[], most: 0 };
    const fetchPage = async (offset: number, size: number) => {
      log.asked.push(offset);
      inFlight += 1;
      log.most = Math.max(log.most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      const slice = all.slice(offset, offset + (offset === short ? size - 1 : size));
      const end = offset + slice.length;
      return { items: slice, next: end < all.length ? end : null };
    };
    return { fetchPage, log };
  }

  it(
    'reads the same records and leaves the same next position as ' +
      'one page after the other, asking the pages at once',
    async () => {
      const one = offsetProvider();
      const inTurn: ResumablePaging = { start: { cursor: 5, page_size: 4 } };
      const expected = await collectPages(
        { want: 10, paging: inTurn },
        { first: 0, maxPageSize: 100, fetchPage: one.fetchPage, map },
      );
      const many = offsetProvider();
      const side: ResumablePaging = { start: { cursor: 5, page_size: 4 } };
      const records = await collectPages(
        { want: 10, paging: side, parallelPages: 8 },
        { first: 0, maxPageSize: 100, fetchPage: many.fetchPage, map, seek: byOffset },
      );
      expect(records.map((r) => r.provider_job_id)).toEqual(expected.map((r) => r.provider_job_id));
      expect(records.map((r) => r.provider_job_id)).toEqual([
        'b5',
        'b6',
        'b7',
        'b8',
        'b9',
        'b10',
        'b11',
        'b12',
        'b13',
        'b14',
        'b15',
        'b16',
      ]);
      expect(side.next).toEqual(inTurn.next);
      expect(many.log.asked).toEqual([5, 9, 13]);
      expect(many.log.most).toBe(3);
      expect(one.log.most).toBe(1);
    },
  );

  it('stops at the last page: pages asked past the end are not used and next is null', async () => {
    const { fetchPage, log } = offsetProvider();
    const paging: ResumablePaging = { start: { cursor: 16, page_size: 4 } };
    const records = await collectPages(
      { want: 40, paging, parallelPages: 8 },
      { first: 0, maxPageSize: 100, fetchPage, map, seek: byOffset },
    );
    expect(records.map((r) => r.provider_job_id)).toEqual(['b16', 'b17', 'b18', 'b19', 'b20', 'b21', 'b22']);
    expect(paging.next).toBeNull();
    expect(log.asked).toEqual([16, 20, 24, 28, 32, 36, 40, 44]);
  });

  it('continues from a short page’s own next position, never skipping or repeating a record', async () => {
    const { fetchPage, log } = offsetProvider(4);
    const paging: ResumablePaging = { start: { cursor: 0, page_size: 4 } };
    const records = await collectPages(
      { want: 12, paging, parallelPages: 8 },
      { first: 0, maxPageSize: 100, fetchPage, map, seek: byOffset },
    );
    // the page at 4 held 3 items (next 7, not 8): the pages asked at 8 are dropped, the read goes on from 7
    expect(records.map((r) => r.provider_job_id)).toEqual([
      'b0',
      'b1',
      'b2',
      'b3',
      'b4',
      'b5',
      'b6',
      'b7',
      'b8',
      'b9',
      'b10',
      'b11',
      'b12',
      'b13',
      'b14',
    ]);
    expect(log.asked).toEqual([0, 4, 8, 7, 11]);
    expect(paging.next).toEqual({ cursor: 15, page_size: 4 });
  });

  it('asks one page at a time when the read is not parallel (page-number seek)', async () => {
    let most = 0;
    let inFlight = 0;
    const fetchPage = async (page: number, size: number) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight -= 1;
      return {
        items: all.slice((page - 1) * size, page * size),
        next: page * size < all.length ? byPage(page, 1) : null,
      };
    };
    const records = await collectPages(
      { want: 12, parallelPages: 1 },
      { first: 1, maxPageSize: 4, fetchPage, map, seek: byPage },
    );
    expect(records).toHaveLength(12);
    expect(most).toBe(1);
  });
});

describe('validRecord', () => {
  it('takes the NUL character out of every text (PostgreSQL cannot store it), keeping the record', () => {
    const record = examples.normalizedRecord();
    const dirty = {
      ...record,
      title: 'Backend\u0000 Engineer',
      description: '\u0000line one\u0000',
      company: { ...record.company, name: 'Acme\u0000' },
    };
    expect(validRecord(dirty)).toEqual({
      ...record,
      title: 'Backend Engineer',
      description: 'line one',
      company: { ...record.company, name: 'Acme' },
    });
    // a title of NUL alone is no title: the record is skipped
    expect(validRecord({ ...record, title: '\u0000' })).toBeNull();
  });

  it('leaves a record without NUL as it is, not a copy', () => {
    const record = examples.normalizedRecord();
    expect(withoutNul(record)).toBe(record);
  });
});

describe('collectPages and items that do not map', () => {
  it('counts them in a resumed read, so a sweep knows its listing was not read whole', async () => {
    const paging: ResumablePaging = { start: null };
    const records = await collectPages(
      { want: 10, paging },
      {
        first: 0,
        maxPageSize: 10,
        fetchPage: async () => ({ items: ['a', 'bad', 'c', 'bad'], next: null }),
        map: (raw) => (raw === 'bad' ? null : { ...examples.normalizedRecord(), provider_job_id: String(raw) }),
      },
    );
    expect(records.map((r) => r.provider_job_id)).toEqual(['a', 'c']);
    expect(paging.skipped).toBe(2);
  });
});
