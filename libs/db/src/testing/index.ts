/** Test support (never imported by services): databases of their own for integration specs. */
export * from './throwaway-database.js';
