import { loadConfig } from '@jobs/config';
import { DedupeEnvSchema, listingLags } from './config.js';

describe('dedupe configuration', () => {
  it(
    "takes each provider's listing lag from " +
      'REFRESH_LISTING_LAG_MS, the others an hour unless ' +
      'REFRESH_LISTING_LAG_DEFAULT_MS says otherwise',
    () => {
      const config = loadConfig(DedupeEnvSchema, { REFRESH_LISTING_LAG_MS: 'provider_a=300000, provider_d=1800000' });
      expect(config.REFRESH_LISTING_LAG_MS).toEqual({ provider_a: 300_000, provider_d: 1_800_000 });
      expect(listingLags(config)).toEqual({
        own_index: 3_600_000,
        provider_a: 300_000,
        provider_b: 3_600_000,
        provider_c: 3_600_000,
        provider_d: 1_800_000,
        provider_e: 3_600_000,
        provider_f: 3_600_000,
      });
      const shorter = loadConfig(DedupeEnvSchema, {
        REFRESH_LISTING_LAG_MS: 'own_index=120000',
        REFRESH_LISTING_LAG_DEFAULT_MS: '600000',
      });
      expect(listingLags(shorter)).toMatchObject({ own_index: 120_000, provider_b: 600_000 });
      expect(listingLags(loadConfig(DedupeEnvSchema, {}))).toMatchObject({
        own_index: 3_600_000,
        provider_f: 3_600_000,
      });
    },
  );

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
