export * from './waterfall-plan.js';
export * from './search-page.js';
export * from './search-estimate.js';
export * from './source-count.js';
export * from './result-set-paging.js';
