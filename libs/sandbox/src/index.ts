/**
 * @jobs/sandbox: the keyless sandbox and test keys' data. Fixed illustrative jobs at fictional
 * companies, the one fixed page (and dry-run estimate) the sync sandbox answers whatever is
 * sent, and the Filters object applied to the jobs for test keys' async searches. Pure
 * TypeScript: no Nest, no database, no I/O.
 */
export * from './sandbox-dataset.js';
export * from './sandbox-filters.js';
export * from './sandbox-search.js';
export * from './sandbox-company.js';
