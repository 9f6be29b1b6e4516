import { type Prisma } from './generated/prisma/client.js';

/** One Kafka message to publish once the surrounding transaction commits. */
export interface OutboxMessageInput {
  topic: string;
  /** Kafka key: partitioning and per-key ordering. */
  key: string;
  /** JSON-serialisable payload. */
  value: Prisma.InputJsonValue;
  /** Kafka headers (string values). */
  headers?: Record<string, string>;
}

/** Anything with the outbox delegate: the `tx` of `prisma.$transaction(async (tx) => …)` (or a client). */
export type OutboxWriter = Pick<Prisma.TransactionClient, 'outboxMessage'>;

/**
 * Transactional outbox: inserts the message in the caller's transaction, so it is published
 * (by the outbox relay, in id order) if and only if the business change commits.
 *
 *   await prisma.$transaction(async (tx) => {
 *     await tx.paidJob.create({ data });
 *     await enqueueOutbox(tx, { topic: 'billing.charged.v1', key: accountId, value: event });
 *   });
 *
 * Returns the outbox row id (a bigint sequence value).
 */
export async function enqueueOutbox(tx: OutboxWriter, message: OutboxMessageInput): Promise<bigint> {
  const row = await tx.outboxMessage.create({ data: toRow(message), select: { id: true } });
  return row.id;
}

/** Several messages in one INSERT (their ids, hence publish order, follow the array order). */
export async function enqueueOutboxMany(tx: OutboxWriter, messages: readonly OutboxMessageInput[]): Promise<number> {
  if (messages.length === 0) return 0;
  const { count } = await tx.outboxMessage.createMany({ data: messages.map(toRow) });
  return count;
}

/** Several messages in one INSERT, returning their row ids in the array's order. */
export async function enqueueOutboxReturning(tx: OutboxWriter, messages: readonly OutboxMessageInput[]): Promise<bigint[]> {
  if (messages.length === 0) return [];
  const rows = await tx.outboxMessage.createManyAndReturn({ data: messages.map(toRow), select: { id: true } });
  // createManyAndReturn answers in insertion order; the ids follow it (one sequence, one statement)
  return rows.map((row) => row.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function toRow(message: OutboxMessageInput): Prisma.OutboxMessageCreateManyInput {
  if (!message.topic) throw new Error('enqueueOutbox: topic is required');
  return { topic: message.topic, key: message.key, value: message.value, headers: message.headers ?? {} };
}
