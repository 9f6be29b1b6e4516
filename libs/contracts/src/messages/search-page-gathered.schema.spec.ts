import { examples } from '../examples.js';
import * as SearchPageGathered from './search-page-gathered.schema.js';

describe('search.page.gathered value (generic)', () => {
  const example = examples.searchPageGathered;
  it('parses its example unchanged', () => expect(SearchPageGathered.ValueSchema.parse(example())).toEqual(example()));
  it('is version 1 only', () => {
    expect(SearchPageGathered.ValueSchema.safeParse({ ...example(), v: 2 }).success).toBe(false);
    const { v: _v, ...unversioned } = example();
    expect(SearchPageGathered.ValueSchema.safeParse(unversioned).success).toBe(false);
  });
  it('is strict', () =>
    expect(SearchPageGathered.ValueSchema.safeParse({ ...example(), extra: true }).success).toBe(false));
  it('survives a JSON round trip', () => {
    expect(SearchPageGathered.ValueSchema.parse(JSON.parse(JSON.stringify(example())))).toEqual(example());
  });
  it('has a non-empty key', () => expect(SearchPageGathered.keyOf(example()).length).toBeGreaterThan(0));
});

describe('search.page.gathered', () => {
  const value = examples.searchPageGathered;
  it('is keyed by search and carries a draft: no credit fields, no cursor (both are billing’s)', () => {
    expect(SearchPageGathered.keyOf(value())).toBe('req_123');
    expect(SearchPageGathered.ValueSchema.safeParse({ ...value(), response: examples.searchResponse() }).success).toBe(
      false,
    );
    expect(
      SearchPageGathered.ValueSchema.safeParse({
        ...value(),
        response: { ...value().response, next_cursor: 'cur_abc' },
      }).success,
    ).toBe(false);
  });
});
