import { loadConfig } from '@jobs/config';
import { PROVIDER_SLUGS, PROVIDERS } from '@jobs/contracts';
import { DedupeEnvSchema, listingLags } from './config.js';

describe('dedupe configuration', () => {
  it("takes each provider's listing lag from the provider registry unless REFRESH_LISTING_LAG_MS names it", () => {
    const config = loadConfig(DedupeEnvSchema, { REFRESH_LISTING_LAG_MS: 'own_index=1000, provider_d=60000' });
    expect(config.REFRESH_LISTING_LAG_MS).toEqual({ own_index: 1_000, provider_d: 60_000 });
    expect(listingLags(config)).toEqual({
      own_index: 1_000,
      provider_a: 300_000,
      provider_b: 900_000,
      provider_c: 60_000,
      provider_d: 60_000,
      provider_e: 3_600_000,
      provider_f: 600_000,
    });
    const lags = listingLags(loadConfig(DedupeEnvSchema, {}));
    for (const slug of PROVIDER_SLUGS) expect(lags[slug]).toBe(PROVIDERS[slug].listingLagMs);
  });

  it('refuses an unknown provider, a provider named twice, a lag that is not whole milliseconds up to a day', () => {
    for (const value of [
      'provider_z=1000',
      'provider_a=1000,provider_a=2000',
      'provider_a=-5',
      'provider_a=5m',
      'provider_a=90000000',
      'provider_a',
    ]) {
      expect(() => loadConfig(DedupeEnvSchema, { REFRESH_LISTING_LAG_MS: value })).toThrow(/REFRESH_LISTING_LAG_MS/);
    }
  });
});
