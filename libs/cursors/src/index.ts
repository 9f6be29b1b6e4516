export * from './cursor-codec.js';
export * from './canonical-json.js';
export * from './keyset.js';
export * from './search-cursor-codec.js';
