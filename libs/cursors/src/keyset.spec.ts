import { keysetPage, newestFirstAfter, nextCursorOf } from './keyset.js';

describe('keyset paging', () => {
  it('serves the first `limit` rows of a read of limit + 1, and continues after the last one served', () => {
    const page = keysetPage([1, 2, 3], 2);
    expect(page).toEqual({ rows: [1, 2], more: true, last: 2 });
    expect(nextCursorOf(page, (last) => `after:${last}`)).toBe('after:2');
  });

  it('has no next cursor when the read found no extra row, or nothing at all', () => {
    expect(nextCursorOf(keysetPage([1, 2], 2), String)).toBeNull();
    const empty = keysetPage([], 2);
    expect(empty).toEqual({ rows: [], more: false, last: undefined });
    expect(nextCursorOf(empty, String)).toBeNull();
  });

  it('continues a newest-first listing after a position: older rows, or as old with a lower id', () => {
    const at = new Date('2026-11-22T08:00:00.000Z');
    expect(newestFirstAfter({ at, id: 'led_5' })).toEqual({
      // the bound an index range starts at, beside the exact condition
      createdAt: { lte: at },
      OR: [{ createdAt: { lt: at } }, { createdAt: at, id: { lt: 'led_5' } }],
    });
    expect(newestFirstAfter(null)).toEqual({});
    expect(newestFirstAfter(undefined)).toEqual({});
  });
});
