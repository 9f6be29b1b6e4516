export * from './plan-catalog.js';
