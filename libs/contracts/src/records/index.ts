export * from './normalized-provider-record.schema.js';
