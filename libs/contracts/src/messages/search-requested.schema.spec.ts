import { examples } from '../examples.js';
import * as SearchRequested from './search-requested.schema.js';

describe('search.requested value (generic)', () => {
  const example = examples.searchRequested;
  it('parses its example unchanged', () => expect(SearchRequested.ValueSchema.parse(example())).toEqual(example()));
  it('is version 1 only', () => {
    expect(SearchRequested.ValueSchema.safeParse({ ...example(), v: 2 }).success).toBe(false);
    const { v: _v, ...unversioned } = example();
    expect(SearchRequested.ValueSchema.safeParse(unversioned).success).toBe(false);
  });
  it('is strict', () =>
    expect(SearchRequested.ValueSchema.safeParse({ ...example(), extra: true }).success).toBe(false));
  it('survives a JSON round trip', () => {
    expect(SearchRequested.ValueSchema.parse(JSON.parse(JSON.stringify(example())))).toEqual(example());
  });
  it('has a non-empty key', () => expect(SearchRequested.keyOf(example()).length).toBeGreaterThan(0));
});

describe('search.requested', () => {
  const value = examples.searchRequested;
  it('ties the search id prefix to the kind', () => {
    expect(SearchRequested.ValueSchema.safeParse({ ...value(), search_id: 'srch_1' }).error?.issues[0]?.path).toEqual([
      'search_id',
    ]);
    expect(SearchRequested.ValueSchema.safeParse({ ...value(), kind: 'async', search_id: 'srch_1' }).success).toBe(
      true,
    );
    expect(SearchRequested.ValueSchema.safeParse({ ...value(), search_id: 'job_1' }).success).toBe(false);
  });
  it('carries the parsed request with defaults and a numeric deadline', () => {
    expect(
      SearchRequested.ValueSchema.safeParse({ ...value(), request: { ...value().request, limit: 101 } }).success,
    ).toBe(false);
    expect(SearchRequested.ValueSchema.safeParse({ ...value(), deadline_at: '2026-10-01T12:00:10Z' }).success).toBe(
      false,
    );
    expect(SearchRequested.ValueSchema.safeParse({ ...value(), mode: 'prod' }).success).toBe(false);
    expect(SearchRequested.keyOf(value())).toBe('req_123');
  });
});
