export * from './tokens.js';
export * from './nest-logger.js';
export * from './readiness.registry.js';
export * from './drain.registry.js';
export * from './health.controller.js';
export * from './service-kit.module.js';
export * from './bootstrap.js';
export * from './rethrow-rpc.filter.js';
