import { examples } from '../examples.js';
import * as ProviderFetchRequested from './provider-fetch-requested.schema.js';

describe('provider.fetch.requested value (generic)', () => {
  const example = examples.providerFetchRequested;
  it('parses its example unchanged', () =>
    expect(ProviderFetchRequested.ValueSchema.parse(example())).toEqual(example()));
  it('is version 1 only', () => {
    expect(ProviderFetchRequested.ValueSchema.safeParse({ ...example(), v: 2 }).success).toBe(false);
    const { v: _v, ...unversioned } = example();
    expect(ProviderFetchRequested.ValueSchema.safeParse(unversioned).success).toBe(false);
  });
  it('is strict', () =>
    expect(ProviderFetchRequested.ValueSchema.safeParse({ ...example(), extra: true }).success).toBe(false));
  it('survives a JSON round trip', () => {
    expect(ProviderFetchRequested.ValueSchema.parse(JSON.parse(JSON.stringify(example())))).toEqual(example());
  });
  it('has a non-empty key', () => expect(ProviderFetchRequested.keyOf(example()).length).toBeGreaterThan(0));
});

describe('provider.fetch.requested', () => {
  it('wants at least one record from known providers, each asked once', () => {
    const value = examples.providerFetchRequested();
    expect(ProviderFetchRequested.ValueSchema.safeParse({ ...value, want: 0 }).success).toBe(false);
    expect(
      ProviderFetchRequested.ValueSchema.safeParse({ ...value, providers: [{ provider: 'provider_z' }] }).success,
    ).toBe(false);
    expect(ProviderFetchRequested.ValueSchema.safeParse({ ...value, providers: [] }).success).toBe(false);
    expect(
      ProviderFetchRequested.ValueSchema.safeParse({
        ...value,
        providers: [{ provider: 'provider_a' }, { provider: 'provider_a' }],
      }).error?.issues[0]?.path,
    ).toEqual(['providers', 1, 'provider']);
    expect(
      ProviderFetchRequested.ValueSchema.safeParse({
        ...value,
        providers: [{ provider: 'provider_a' }, { provider: 'provider_b', from: null }],
      }).success,
    ).toBe(true);
    expect(ProviderFetchRequested.ValueSchema.safeParse({ ...value, filters: { nope: 1 } }).success).toBe(false);
  });
});

describe('provider.fetch.requested and the own index', () => {
  it('never asks the own index: it answers from the store without the fetcher', () => {
    const own = { ...examples.providerFetchRequested(), providers: [{ provider: 'own_index' as const }] };
    expect(ProviderFetchRequested.ValueSchema.safeParse(own).error?.issues[0]?.path).toEqual([
      'providers',
      0,
      'provider',
    ]);
  });
});
