export * from './title.js';
export * from './listing-hash.js';
