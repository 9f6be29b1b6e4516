export * from './field-coverage.js';
export * from './contributions.js';
