/**
 * @jobs/contracts: the single source of truth for every public API object, every admin API
 * body and every Kafka message, and the provider registry. Schemas are `XxxSchema`, their
 * inferred types `Xxx`.
 */
export * from './public/index.js';
export * from './providers/index.js';
export * from './admin/index.js';
export * from './records/index.js';
export * from './messages/index.js';
export * from './state/index.js';
export * from './topology.js';
export * from './topology-docs.js';
export * from './sync-search-hops.js';
export * from './examples.js';
export * from './openapi/index.js';
export * from './dashboard/dashboard.schema.js';
