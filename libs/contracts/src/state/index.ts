export * from './provider-breaker.schema.js';
export * from './ledger-entry-row.js';
