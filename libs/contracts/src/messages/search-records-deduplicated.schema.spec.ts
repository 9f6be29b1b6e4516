import { examples } from '../examples.js';
import * as SearchRecordsDeduplicated from './search-records-deduplicated.schema.js';

describe('search.records.deduplicated value (generic)', () => {
  const example = examples.searchRecordsDeduplicated;
  it('parses its example unchanged', () =>
    expect(SearchRecordsDeduplicated.ValueSchema.parse(example())).toEqual(example()));
  it('is version 1 only', () => {
    expect(SearchRecordsDeduplicated.ValueSchema.safeParse({ ...example(), v: 2 }).success).toBe(false);
    const { v: _v, ...unversioned } = example();
    expect(SearchRecordsDeduplicated.ValueSchema.safeParse(unversioned).success).toBe(false);
  });
  it('is strict', () =>
    expect(SearchRecordsDeduplicated.ValueSchema.safeParse({ ...example(), extra: true }).success).toBe(false));
  it('survives a JSON round trip', () => {
    expect(SearchRecordsDeduplicated.ValueSchema.parse(JSON.parse(JSON.stringify(example())))).toEqual(example());
  });
  it('has a non-empty key', () => expect(SearchRecordsDeduplicated.keyOf(example()).length).toBeGreaterThan(0));
});

describe('search.records.deduplicated', () => {
  const value = examples.searchRecordsDeduplicated;
  const batch = () => value().batches[0]!;
  it('cannot merge more than came in', () => {
    expect(
      SearchRecordsDeduplicated.ValueSchema.safeParse({ ...value(), batches: [{ ...batch(), duplicates_merged: 2 }] })
        .success,
    ).toBe(false);
    expect(
      SearchRecordsDeduplicated.ValueSchema.safeParse({
        ...value(),
        batches: [{ ...batch(), records_in: 0, duplicates_merged: 0 }],
      }).success,
    ).toBe(false);
  });
  it('lists every job once, and a batch only lists jobs of the message', () => {
    expect(
      SearchRecordsDeduplicated.ValueSchema.safeParse({ ...value(), jobs: [...value().jobs, ...value().jobs] }).error
        ?.issues[0]?.path,
    ).toEqual(['jobs']);
    expect(
      SearchRecordsDeduplicated.ValueSchema.safeParse({
        ...value(),
        batches: [{ ...batch(), job_ids: ['job_00000000000000000000000000'] }],
      }).error?.issues[0]?.path,
    ).toEqual(['batches', 0, 'job_ids', 0]);
  });
  it('reports each provider once', () => {
    expect(
      SearchRecordsDeduplicated.ValueSchema.safeParse({ ...value(), batches: [batch(), batch()] }).error?.issues[0]
        ?.path,
    ).toEqual(['batches', 1, 'provider']);
  });
});

describe('search.records.deduplicated from_store', () => {
  it('lets the own index answer more jobs than records came in, from its store only', () => {
    const own = { ...batch0(), records_in: 0, duplicates_merged: 0 };
    const withBatch = (b: object) => ({ ...examples.searchRecordsDeduplicated(), batches: [b] });
    expect(
      SearchRecordsDeduplicated.ValueSchema.safeParse(withBatch({ ...own, provider: 'own_index', from_store: 1 }))
        .success,
    ).toBe(true);
    expect(
      SearchRecordsDeduplicated.ValueSchema.safeParse(withBatch({ ...own, provider: 'provider_a', from_store: 1 }))
        .success,
    ).toBe(false);
    expect(
      SearchRecordsDeduplicated.ValueSchema.parse(
        withBatch({ ...own, provider: 'own_index', job_ids: [], from_store: undefined }),
      ).batches[0]!.from_store,
    ).toBe(0);
  });
});

function batch0() {
  return examples.searchRecordsDeduplicated().batches[0]!;
}
