export * from './env.schema.js';
export * from './load-config.js';
