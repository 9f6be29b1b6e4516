export * from './accounts.schema.js';
export * from './providers.schema.js';
export * from './world.schema.js';
export * from './crawler-boards.schema.js';
