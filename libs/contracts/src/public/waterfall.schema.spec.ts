import { WaterfallSchema } from './waterfall.schema.js';

const ok = (value: unknown) => WaterfallSchema.safeParse(value).success;

describe('WaterfallSchema', () => {
  it('applies the defaults', () => {
    expect(WaterfallSchema.parse({})).toEqual({ strategy: 'cheapest_first', timeout_ms: 10_000, min_sources: 2 });
  });

  it('keeps given values', () => {
    const waterfall = {
      strategy: 'consensus',
      providers: ['own_index', 'provider_b'],
      max_credits: 0,
      timeout_ms: 5_000,
      min_sources: 3,
    };
    expect(WaterfallSchema.parse(waterfall)).toEqual(waterfall);
  });

  it.each([
    [999, false],
    [1000, true],
    [30000, true],
    [30001, false],
    [1500.5, false],
  ])('timeout_ms %p -> %p', (timeout_ms, expected) => expect(ok({ timeout_ms })).toBe(expected));

  it.each([
    [1, false],
    [2, true],
    [7, true],
    [8, false],
  ])('min_sources %p -> %p', (min_sources, expected) => expect(ok({ min_sources })).toBe(expected));

  it('rejects unknown strategies, unknown providers and repeated providers', () => {
    expect(ok({ strategy: 'random' })).toBe(false);
    expect(ok({ providers: ['provider_z'] })).toBe(false);
    expect(ok({ providers: ['provider_a', 'provider_a'] })).toBe(false);
    expect(ok({ providers: [] })).toBe(false);
  });

  it('bounds max_credits to non-negative integers', () => {
    expect(ok({ max_credits: -1 })).toBe(false);
    expect(ok({ max_credits: 2.5 })).toBe(false);
    expect(ok({ max_credits: null })).toBe(false);
  });

  it('is strict', () => {
    const result = WaterfallSchema.safeParse({ timeout: 1000 });
    expect(result.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['timeout'] });
  });
});
