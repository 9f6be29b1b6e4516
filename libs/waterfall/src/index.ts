export * from './waterfall-plan.js';
export * from './search-page.js';
export * from './job-filter.js';
