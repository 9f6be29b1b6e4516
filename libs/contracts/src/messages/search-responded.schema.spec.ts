import { examples } from '../examples.js';
import * as SearchResponded from './search-responded.schema.js';

describe('search.responded value (generic)', () => {
  const example = examples.searchResponded;
  it('parses its example unchanged', () => expect(SearchResponded.ValueSchema.parse(example())).toEqual(example()));
  it('is version 1 only', () => {
    expect(SearchResponded.ValueSchema.safeParse({ ...example(), v: 2 }).success).toBe(false);
    const { v: _v, ...unversioned } = example();
    expect(SearchResponded.ValueSchema.safeParse(unversioned).success).toBe(false);
  });
  it('is strict', () =>
    expect(SearchResponded.ValueSchema.safeParse({ ...example(), extra: true }).success).toBe(false));
  it('survives a JSON round trip', () => {
    expect(SearchResponded.ValueSchema.parse(JSON.parse(JSON.stringify(example())))).toEqual(example());
  });
  it('has a non-empty key', () => expect(SearchResponded.keyOf(example()).length).toBeGreaterThan(0));
});

describe('search.responded', () => {
  const value = examples.searchResponded;
  const estimate = {
    request_id: 'req_123',
    estimate: {
      expected_unique_jobs_range: { min: 0, max: 3 },
      providers_planned: ['own_index'],
      credits_range: { min: 0, max: 3 },
    },
  };
  it('carries a dry-run estimate instead of a page', () => {
    const { response: _r, ...noResponse } = value();
    expect(SearchResponded.ValueSchema.safeParse({ ...noResponse, estimate, credits_charged: 0 }).success).toBe(true);
    expect(SearchResponded.ValueSchema.safeParse({ ...value(), estimate }).success).toBe(false);
    expect(SearchResponded.ValueSchema.safeParse(noResponse).success).toBe(false);
  });
  it('carries an error exactly on an error outcome', () => {
    const { response: _r, ...noResponse } = value();
    const error = { code: 'insufficient_credits', message: 'Top up', credits_needed: 5 };
    expect(
      SearchResponded.ValueSchema.safeParse({
        ...noResponse,
        outcome: 'error',
        error,
        credits_charged: 0,
        credits_remaining: 0,
      }).success,
    ).toBe(true);
    expect(SearchResponded.ValueSchema.safeParse({ ...noResponse, outcome: 'error', credits_charged: 0 }).success).toBe(
      false,
    );
    expect(SearchResponded.ValueSchema.safeParse({ ...value(), outcome: 'error', error }).success).toBe(false);
    expect(SearchResponded.ValueSchema.safeParse({ ...value(), error }).success).toBe(false);
    expect(
      SearchResponded.ValueSchema.safeParse({ ...noResponse, outcome: 'error', error: { ...error, code: 'broke' } })
        .success,
    ).toBe(false);
  });
});
