export * from './provider-breaker.schema.js';
