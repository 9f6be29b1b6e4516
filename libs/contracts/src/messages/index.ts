/** Every Kafka message, one module per topic, exposed as a namespace: `SearchRequested.Value`. */
export * from './common.schema.js';
export * from './search-cursor.schema.js';
export * as SearchRequested from './search-requested.schema.js';
export * as ProviderFetchRequested from './provider-fetch-requested.schema.js';
export * as ProviderRecordsFetched from './provider-records-fetched.schema.js';
export * as SearchRecordsDeduplicated from './search-records-deduplicated.schema.js';
export * as BillingChargeRequested from './billing-charge-requested.schema.js';
export * as SearchResponded from './search-responded.schema.js';
export * as DeadLetter from './dead-letter.schema.js';
export * as EventEmitted from './event-emitted.schema.js';
export * as BillingQueryRequested from './billing-query-requested.schema.js';
export * as DedupeQueryRequested from './dedupe-query-requested.schema.js';
export * as QueryResponded from './query-responded.schema.js';
export { SearchCorrelationIdSchema, SearchKindSchema, type SearchKind } from './search-requested.schema.js';
export { SearchFailureSchema, type SearchFailure } from './search-responded.schema.js';
