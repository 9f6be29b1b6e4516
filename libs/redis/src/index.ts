export * from './redis.module.js';
export * from './interval-lease.js';
export * from './deadline.js';
export * from './transaction.js';
