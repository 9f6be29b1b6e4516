// Against the real PostgreSQL: billing's marks past their retention go, the recent ones and other
// groups' stay.
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import type { Logger } from '@jobs/observability';
import type { DrainRegistry } from '@jobs/service-kit';
import type { BillingConfig } from '../config.js';
import { ProcessedMarksPruner } from './processed-marks-pruner.js';

let db: ThrowawayDatabase;

beforeAll(async () => {
  db = await throwawayDatabase('marks');
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

describe('ProcessedMarksPruner', () => {
  it('deletes billing marks older than the retention, in batches, and keeps the rest', async () => {
    const now = new Date('2026-12-08T00:00:00.000Z');
    const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
    // 12,000 expired marks (more than one batch), 10 recent ones, and another group's old one
    await db.prisma.$executeRaw`
      INSERT INTO processed_messages (consumer_group, message_id, processed_at)
      SELECT 'billing', 'charge:old_' || i, ${hoursAgo(80)}::timestamptz FROM generate_series(1, 12000) AS i`;
    await db.prisma.$executeRaw`
      INSERT INTO processed_messages (consumer_group, message_id, processed_at)
      SELECT 'billing', 'charge:new_' || i, ${hoursAgo(70)}::timestamptz FROM generate_series(1, 10) AS i`;
    await db.prisma.processedMessage.create({
      data: { consumerGroup: 'another', messageId: 'x', processedAt: hoursAgo(1000) },
    });
    const pruner = new ProcessedMarksPruner(
      db.prisma,
      { PROCESSED_MARKS_RETENTION_HOURS: 72 } as BillingConfig,
      { info: () => undefined, warn: () => undefined } as unknown as Logger,
      { register: () => undefined } as unknown as DrainRegistry,
    );

    expect(await pruner.pruneExpired(now)).toBe(12_000);
    const left = await db.prisma.processedMessage.groupBy({ by: ['consumerGroup'], _count: true });
    expect(Object.fromEntries(left.map((group) => [group.consumerGroup, group._count]))).toEqual({
      billing: 10,
      another: 1,
    });
    expect(await pruner.pruneExpired(now)).toBe(0);
  }, 60_000);
});
