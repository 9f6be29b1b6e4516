export * from './cursor-codec.js';
