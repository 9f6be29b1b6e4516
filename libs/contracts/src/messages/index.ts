/**
 * Every Kafka message, one module per topic, exposed as a namespace: `SearchRequested.Value`.
 * Each schema writes out its own envelope (`v`, its ids, `outcome`) instead of spreading a shared
 * shape: a topic's contract reads whole in its file, and one message's envelope can change
 * compatibly without touching another's.
 */
export * from './common.schema.js';
export * from './search-cursor.schema.js';
export * as SearchRequested from './search-requested.schema.js';
export * as ProviderFetchRequested from './provider-fetch-requested.schema.js';
export * as ProviderRecordsFetched from './provider-records-fetched.schema.js';
export * as OwnIndexQueryRequested from './own-index-query-requested.schema.js';
export * as SearchRecordsDeduplicated from './search-records-deduplicated.schema.js';
export * as SearchPageGathered from './search-page-gathered.schema.js';
export * as BillingPageChargeRequested from './billing-page-charge-requested.schema.js';
export * as SearchPageCharged from './search-page-charged.schema.js';
export * as SearchResponded from './search-responded.schema.js';
export * as DeadLetter from './dead-letter.schema.js';
export * as EventEmitted from './event-emitted.schema.js';
export * as BillingQueryRequested from './billing-query-requested.schema.js';
export * as DedupeQueryRequested from './dedupe-query-requested.schema.js';
export * as QueryResponded from './query-responded.schema.js';
export { SearchCorrelationIdSchema, SearchKindSchema, type SearchKind } from './search-requested.schema.js';
export { SearchFailureSchema, type SearchFailure } from './search-responded.schema.js';
export * as JobLifecycleChanged from './job-lifecycle-changed.schema.js';
export * as CompanyHiringChanged from './company-hiring-changed.schema.js';
export * as RefreshRequested from './refresh-requested.schema.js';
export * as RefreshFetchRequested from './refresh-fetch-requested.schema.js';
export * as RefreshRecordsFetched from './refresh-records-fetched.schema.js';
export * as EventChargeRequested from './event-charge-requested.schema.js';
export * as AccountCreditsAdded from './account-credits-added.schema.js';
export { ChangeIdSchema, JobChangeSchema, type JobChange } from './job-lifecycle-changed.schema.js';
export { REFRESH_SEQUENCES, RefreshIdSchema, type RefreshSequenceKind } from './refresh-requested.schema.js';
export {
  isPassSweep,
  isWindowSweep,
  LISTINGS_SWEEP_MAX_IDS,
  RefreshScopeSchema,
  RefreshSweepKindSchema,
  type RefreshBoard,
  type RefreshScope,
  type RefreshSweepKind,
} from './refresh-fetch-requested.schema.js';
export {
  BOARD_READ_IDS_MAX,
  BOARD_READ_IDS_MAX_BYTES,
  BOARD_SKIPPED_ID_MAX_CHARS,
  BOARD_SKIPPED_IDS_MAX,
  boardReadWhole,
  type BoardReadOutcome,
} from './refresh-records-fetched.schema.js';
export * as OrchestratorQueryRequested from './orchestrator-query-requested.schema.js';
export * as DispatcherQueryRequested from './dispatcher-query-requested.schema.js';
export * as AsyncChunkRequested from './async-chunk-requested.schema.js';
export * as AsyncChunkFetched from './async-chunk-fetched.schema.js';
export * as AsyncChunkDeduplicated from './async-chunk-deduplicated.schema.js';
export * as AsyncChunkChargeRequested from './async-chunk-charge-requested.schema.js';
export * as AsyncChunkCharged from './async-chunk-charged.schema.js';
export {
  ASYNC_CHUNK_MAX,
  ChunkPositionSchema,
  StoreKeySchema,
  ProviderPagePositionSchema,
  type ChunkPosition,
  type StoreKey,
  type ProviderPagePosition,
} from './async-chunk-requested.schema.js';
