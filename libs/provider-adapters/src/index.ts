export * from './provider-adapter.js';
