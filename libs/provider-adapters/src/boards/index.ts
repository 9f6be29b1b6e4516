export * from './board-breakers.js';
export * from './board-format.js';
export * from './board-formats.js';
export * from './board-location.js';
export * from './board-reader.js';
