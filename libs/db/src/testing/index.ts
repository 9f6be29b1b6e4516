/** Test support (never imported by services): databases of their own for integration specs. */
export * from './query-plans.js';
export * from './throwaway-database.js';
