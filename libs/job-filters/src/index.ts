export * from './filter-registry.js';
export * from './job-filters.js';
export * from './sql-condition.js';
export * from './title-words.js';
