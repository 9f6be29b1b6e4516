export * from './stack.js';
export * from './services.js';
export * from './world.js';
export * from './webhooks.js';
export * from './otlp-receiver.js';
export * from './prometheus-text.js';
export * from './metrics.js';
export * from './ledger-sql.js';
