export * from './charge-plan.js';
