import { examples } from '../examples.js';
import * as SearchRecordsDeduplicated from './search-records-deduplicated.schema.js';

describe('search.records.deduplicated value (generic)', () => {
  const example = examples.searchRecordsDeduplicated;
  it('parses its example unchanged', () => expect(SearchRecordsDeduplicated.ValueSchema.parse(example())).toEqual(example()));
  it('is version 1 only', () => {
    expect(SearchRecordsDeduplicated.ValueSchema.safeParse({ ...example(), v: 2 }).success).toBe(false);
    const { v: _v, ...unversioned } = example();
    expect(SearchRecordsDeduplicated.ValueSchema.safeParse(unversioned).success).toBe(false);
  });
  it('is strict', () => expect(SearchRecordsDeduplicated.ValueSchema.safeParse({ ...example(), extra: true }).success).toBe(false));
  it('survives a JSON round trip', () => {
    expect(SearchRecordsDeduplicated.ValueSchema.parse(JSON.parse(JSON.stringify(example())))).toEqual(example());
  });
  it('has a non-empty key', () => expect(SearchRecordsDeduplicated.keyOf(example()).length).toBeGreaterThan(0));
});

describe('search.records.deduplicated', () => {
  it('cannot merge more than came in', () => {
    const value = examples.searchRecordsDeduplicated();
    expect(SearchRecordsDeduplicated.ValueSchema.safeParse({ ...value, duplicates_merged: 2 }).success).toBe(false);
    expect(SearchRecordsDeduplicated.ValueSchema.safeParse({ ...value, records_in: 0, duplicates_merged: 0 }).success).toBe(false);
  });
});

describe('search.records.deduplicated from_store', () => {
  it('lets the own index answer more jobs than records came in, from its store only', () => {
    const value = { ...examples.searchRecordsDeduplicated(), records_in: 0, duplicates_merged: 0 };
    expect(SearchRecordsDeduplicated.ValueSchema.safeParse({ ...value, provider: 'own_index', from_store: 1 }).success).toBe(true);
    expect(SearchRecordsDeduplicated.ValueSchema.safeParse({ ...value, provider: 'provider_a', from_store: 1 }).success).toBe(false);
    expect(SearchRecordsDeduplicated.ValueSchema.parse({ ...value, provider: 'own_index', jobs: [], from_store: undefined }).from_store).toBe(0);
  });
});
