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
export type OutboxWriter = Pick<Prisma.TransactionClient, 'outboxMessage' | '$queryRaw'>;

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

/** One message whose value is already JSON text (as it goes on the wire). */
export interface SerializedOutboxMessage {
  topic: string;
  key: string;
  /** The message value as JSON text, stored as it is. */
  value: string;
  headers: Record<string, string>;
}

/**
 * Several messages in one INSERT of JSON text, returning their row ids in the array's order.
 * Raw SQL on purpose: through the model API Prisma walked every value object to serialize it
 * again (the answer of a search is a page of 20 jobs), and the caller had to parse its own JSON
 * text back into objects first; here the text goes as one `text[]` parameter and is stored as it
 * is (the column is text, uncompressed: the row lives until its send).
 */
export async function enqueueSerializedOutbox(tx: OutboxWriter, messages: readonly SerializedOutboxMessage[]): Promise<bigint[]> {
  if (messages.length === 0) return [];
  for (const message of messages) if (!message.topic) throw new Error('enqueueOutbox: topic is required');
  const rows = await tx.$queryRaw<Array<{ id: bigint }>>`
    INSERT INTO outbox_messages (topic, key, value, headers)
    SELECT m.topic, m.key, m.value, m.headers::jsonb
    FROM unnest(
      ${messages.map((m) => m.topic)}::text[],
      ${messages.map((m) => m.key)}::text[],
      ${messages.map((m) => m.value)}::text[],
      ${messages.map((m) => JSON.stringify(m.headers))}::text[]
    ) WITH ORDINALITY AS m(topic, key, value, headers, n)
    ORDER BY m.n
    RETURNING id`;
  // the rows take the sequence's values in the array's order (one statement, ordered input)
  return rows.map((row) => row.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function toRow(message: OutboxMessageInput): Prisma.OutboxMessageCreateManyInput {
  if (!message.topic) throw new Error('enqueueOutbox: topic is required');
  return { topic: message.topic, key: message.key, value: JSON.stringify(message.value), headers: message.headers ?? {} };
}
