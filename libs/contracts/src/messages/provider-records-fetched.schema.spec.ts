import { examples } from '../examples.js';
import * as ProviderRecordsFetched from './provider-records-fetched.schema.js';

describe('provider.records.fetched value (generic)', () => {
  const example = examples.providerRecordsFetched;
  it('parses its example unchanged', () =>
    expect(ProviderRecordsFetched.ValueSchema.parse(example())).toEqual(example()));
  it('is version 1 only', () => {
    expect(ProviderRecordsFetched.ValueSchema.safeParse({ ...example(), v: 2 }).success).toBe(false);
    const { v: _v, ...unversioned } = example();
    expect(ProviderRecordsFetched.ValueSchema.safeParse(unversioned).success).toBe(false);
  });
  it('is strict', () =>
    expect(ProviderRecordsFetched.ValueSchema.safeParse({ ...example(), extra: true }).success).toBe(false));
  it('survives a JSON round trip', () => {
    expect(ProviderRecordsFetched.ValueSchema.parse(JSON.parse(JSON.stringify(example())))).toEqual(example());
  });
  it('has a non-empty key', () => expect(ProviderRecordsFetched.keyOf(example()).length).toBeGreaterThan(0));
});

describe('provider.records.fetched', () => {
  const value = examples.providerRecordsFetched;
  const batch = () => value().batches[0]!;
  it('carries no records on a failed fetch', () => {
    expect(
      ProviderRecordsFetched.ValueSchema.safeParse({
        ...value(),
        batches: [{ ...batch(), outcome: 'provider_timeout' }],
      }).error?.issues[0]?.path,
    ).toEqual(['batches', 0, 'records']);
    expect(
      ProviderRecordsFetched.ValueSchema.safeParse({
        ...value(),
        batches: [{ ...batch(), outcome: 'provider_error', records: [] }],
      }).success,
    ).toBe(true);
  });
  it('only carries records of the batch provider', () => {
    const other = { ...examples.normalizedRecord(), provider: 'provider_b' };
    expect(
      ProviderRecordsFetched.ValueSchema.safeParse({ ...value(), batches: [{ ...batch(), records: [other] }] }).error
        ?.issues[0]?.path,
    ).toEqual(['batches', 0, 'records', 0, 'provider']);
  });
  it('holds a wave: one batch per provider, at least one', () => {
    const b = { ...batch(), provider: 'provider_b' as const, records: [] };
    expect(ProviderRecordsFetched.ValueSchema.safeParse({ ...value(), batches: [batch(), b] }).success).toBe(true);
    expect(
      ProviderRecordsFetched.ValueSchema.safeParse({ ...value(), batches: [batch(), batch()] }).error?.issues[0]?.path,
    ).toEqual(['batches', 1, 'provider']);
    expect(ProviderRecordsFetched.ValueSchema.safeParse({ ...value(), batches: [] }).success).toBe(false);
  });
});
