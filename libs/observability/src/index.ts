export * from './logger.js';
export * from './request-context.js';
export * from './ids.js';
