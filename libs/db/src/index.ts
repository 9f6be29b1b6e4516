export * from './prisma-client.js';
export * from './errors.js';
export * from './asker-gave-up.js';
export * from './outbox.js';
export * from './order.js';
export * from './prisma.service.js';
export * from './prisma.module.js';
