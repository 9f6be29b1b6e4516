export * from './env.schema.js';
export * from './load-config.js';
export * from './webhook-env.schema.js';
export * from './production-secrets.js';
export * from './production-urls.js';
