export * from './outbox-relay.js';
export * from './outbox.module.js';
