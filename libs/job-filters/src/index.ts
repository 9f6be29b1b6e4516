export * from './job-filters.js';
