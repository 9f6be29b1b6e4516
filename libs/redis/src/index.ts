export * from './redis.module.js';
export * from './interval-lease.js';
export * from './deadline.js';
