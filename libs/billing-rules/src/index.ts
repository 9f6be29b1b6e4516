export * from './charge-plan.js';
export * from './page-continuation.js';
export * from './partial-charge.js';
