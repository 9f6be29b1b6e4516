import { SearchContinuationSchema, SearchCursorPositionSchema, searchCursorScope } from './search-cursor.schema.js';

describe('search cursor position', () => {
  it('is a result set, an offset and the request fingerprint, nothing else', () => {
    const position = { set: 'req_123', offset: 3, fingerprint: 'fp_abc' };
    expect(SearchCursorPositionSchema.parse(position)).toEqual(position);
    expect(SearchCursorPositionSchema.safeParse({ ...position, extra: 1 }).success).toBe(false);
    expect(SearchCursorPositionSchema.safeParse({ ...position, offset: 1.5 }).success).toBe(false);
    expect(SearchCursorPositionSchema.safeParse({ ...position, fingerprint: '' }).success).toBe(false);
    expect(SearchCursorPositionSchema.safeParse(null).success).toBe(false);
  });

  it('has a continuation with the page start, the set size and whether a provider has more', () => {
    expect(
      SearchContinuationSchema.safeParse({
        set: 'req_123',
        fingerprint: 'fp',
        page_start: 10,
        set_size: 14,
        more: true,
      }).success,
    ).toBe(true);
    expect(
      SearchContinuationSchema.safeParse({ set: 'req_123', fingerprint: 'fp', page_start: 10, set_size: 14 }).success,
    ).toBe(false);
    expect(SearchContinuationSchema.safeParse({ set: 'req_123', fingerprint: 'fp', page_start: 10 }).success).toBe(
      false,
    );
  });

  it('is scoped to one account', () => {
    expect(searchCursorScope('acc_1')).not.toBe(searchCursorScope('acc_2'));
  });
});
