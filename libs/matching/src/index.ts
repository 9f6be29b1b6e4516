export * from './normalize.js';
export * from './text-sketch.js';
export * from './features.js';
export * from './score.js';
export * from './canonical-index.js';
export * from './field-rank.js';
