export * from './types.js';
export * from './prng.js';
export { COUNTRIES, normalizeCountry, type CountryInfo } from './vocab/countries.js';
export { ADDED_SLOT_BASE, DAY_MS, TIME_BUCKET_MS, LISTING_SHARE } from './market.js';
export { decodeProviderJobId, encodeProviderJobId } from './provider-ids.js';
export * from './world.js';
export * from './providers/index.js';
