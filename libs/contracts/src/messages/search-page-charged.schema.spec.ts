import { examples } from '../examples.js';
import * as SearchPageCharged from './search-page-charged.schema.js';

describe('search.page.charged value (generic)', () => {
  const example = examples.searchPageCharged;
  it('parses its example unchanged', () => expect(SearchPageCharged.ValueSchema.parse(example())).toEqual(example()));
  it('is version 1 only', () => {
    expect(SearchPageCharged.ValueSchema.safeParse({ ...example(), v: 2 }).success).toBe(false);
    const { v: _v, ...unversioned } = example();
    expect(SearchPageCharged.ValueSchema.safeParse(unversioned).success).toBe(false);
  });
  it('is strict', () =>
    expect(SearchPageCharged.ValueSchema.safeParse({ ...example(), extra: true }).success).toBe(false));
  it('survives a JSON round trip', () => {
    expect(SearchPageCharged.ValueSchema.parse(JSON.parse(JSON.stringify(example())))).toEqual(example());
  });
  it('has a non-empty key', () => expect(SearchPageCharged.keyOf(example()).length).toBeGreaterThan(0));
});

describe('search.page.charged', () => {
  const value = examples.searchPageCharged;
  const insufficient = {
    code: 'insufficient_credits' as const,
    message: 'This search needs 3 more credits.',
    credits_needed: 3,
  };
  it('carries the charge exactly when ok, the error exactly when not', () => {
    const { charge: _c, ...noCharge } = value();
    expect(SearchPageCharged.ValueSchema.safeParse(noCharge).success).toBe(false);
    expect(SearchPageCharged.ValueSchema.safeParse({ ...value(), error: insufficient }).success).toBe(false);
    expect(
      SearchPageCharged.ValueSchema.safeParse({
        ...noCharge,
        outcome: 'error',
        error: insufficient,
        credits_charged: 0,
      }).success,
    ).toBe(true);
    expect(SearchPageCharged.ValueSchema.safeParse({ ...value(), outcome: 'error', error: insufficient }).success).toBe(
      false,
    );
  });
  it('is expired with nothing charged, and neither charge nor error', () => {
    const { charge: _c, ...noCharge } = value();
    const expired = { ...noCharge, outcome: 'expired', credits_charged: 0 };
    expect(SearchPageCharged.ValueSchema.safeParse(expired).success).toBe(true);
    expect(SearchPageCharged.ValueSchema.safeParse({ ...expired, credits_charged: 1 }).success).toBe(false);
    expect(SearchPageCharged.ValueSchema.safeParse({ ...expired, error: insufficient }).success).toBe(false);
    expect(
      SearchPageCharged.ValueSchema.safeParse({ ...value(), outcome: 'expired', credits_charged: 0 }).success,
    ).toBe(false);
  });
  it('takes a cursor or null, and job ids', () => {
    expect(
      SearchPageCharged.ValueSchema.safeParse({ ...value(), charge: { ...value().charge!, next_cursor: null } })
        .success,
    ).toBe(true);
    expect(
      SearchPageCharged.ValueSchema.safeParse({ ...value(), charge: { ...value().charge!, next_cursor: 'abc' } })
        .success,
    ).toBe(false);
    expect(
      SearchPageCharged.ValueSchema.safeParse({
        ...value(),
        charge: { ...value().charge!, returned_job_ids: ['cmp_acme'] },
      }).success,
    ).toBe(false);
  });
});
