export * from './provider-adapter.js';
export * from './own-index.adapter.js';
export * from './adapters.js';
