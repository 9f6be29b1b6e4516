/**
 * @jobs/sandbox: the keyless sandbox and test keys' data. Fixed illustrative jobs at fictional
 * companies, the Filters object applied to them, and paging with signed cursors. Pure
 * TypeScript: no Nest, no database, no I/O.
 */
export * from './sandbox-dataset.js';
export * from './sandbox-cursor.js';
export * from './sandbox-search.js';
export * from './sandbox-company.js';
