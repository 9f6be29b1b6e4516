import { examples } from '../examples.js';
import * as OwnIndexQueryRequested from './own-index-query-requested.schema.js';

describe('own-index.query.requested value (generic)', () => {
  const example = examples.ownIndexQueryRequested;
  it('parses its example unchanged', () =>
    expect(OwnIndexQueryRequested.ValueSchema.parse(example())).toEqual(example()));
  it('is version 1 only', () => {
    expect(OwnIndexQueryRequested.ValueSchema.safeParse({ ...example(), v: 2 }).success).toBe(false);
    const { v: _v, ...unversioned } = example();
    expect(OwnIndexQueryRequested.ValueSchema.safeParse(unversioned).success).toBe(false);
  });
  it('is strict', () =>
    expect(OwnIndexQueryRequested.ValueSchema.safeParse({ ...example(), extra: true }).success).toBe(false));
  it('survives a JSON round trip', () => {
    expect(OwnIndexQueryRequested.ValueSchema.parse(JSON.parse(JSON.stringify(example())))).toEqual(example());
  });
  it('has a non-empty key', () => expect(OwnIndexQueryRequested.keyOf(example()).length).toBeGreaterThan(0));
});

describe('own-index.query.requested', () => {
  const value = examples.ownIndexQueryRequested;
  it('continues after a store key, or from the start', () => {
    const after = { first_seen_at: '2026-01-01T00:00:00.000Z', id: 'job_1' };
    expect(OwnIndexQueryRequested.ValueSchema.safeParse({ ...value(), after }).success).toBe(true);
    expect(OwnIndexQueryRequested.ValueSchema.safeParse({ ...value(), after: { id: 'job_1' } }).success).toBe(false);
  });
  it("counts for a dry run's estimate, within 1 to 7 sources", () => {
    const count = { account_id: 'acc_demo', min_sources: 2 };
    expect(OwnIndexQueryRequested.ValueSchema.safeParse({ ...value(), count }).success).toBe(true);
    expect(
      OwnIndexQueryRequested.ValueSchema.safeParse({ ...value(), count: { ...count, min_sources: 8 } }).success,
    ).toBe(false);
  });
  it('asks for at least one job', () =>
    expect(OwnIndexQueryRequested.ValueSchema.safeParse({ ...value(), want: 0 }).success).toBe(false));
});
