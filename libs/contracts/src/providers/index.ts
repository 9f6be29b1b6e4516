export * from './provider-registry.js';
