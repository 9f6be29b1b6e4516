export * from './field-coverage.js';
