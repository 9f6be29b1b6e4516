export * from './normalize.js';
