export * from './cursor-codec.js';
export * from './canonical-json.js';
