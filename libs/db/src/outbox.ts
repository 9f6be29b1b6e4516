import { Prisma } from './generated/prisma/client.js';
import { ascending } from './order.js';

/** Anything that runs raw statements: the `tx` of `prisma.$transaction(async (tx) => …)` (or a client). */
export type OutboxWriter = Pick<Prisma.TransactionClient, '$queryRaw'>;

/** One message whose value is already JSON text (as it goes on the wire). */
export interface SerializedOutboxMessage {
  topic: string;
  key: string;
  /** The message value as JSON text, stored as it is. */
  value: string;
  headers: Record<string, string>;
}

/**
 * The caller's statement around the outbox insert, to write its own change and its messages in
 * one round trip: it must hold `insert` (`INSERT … RETURNING id`) as a data-modifying CTE and
 * return that CTE's ids, e.g. `WITH charge AS (…), staged AS (${insert}) SELECT id FROM staged`.
 */
export type AroundOutboxInsert = (insert: Prisma.Sql) => Prisma.Sql;

export interface OutboxInsertOptions {
  /** Puts the insert inside a statement of the caller's (see AroundOutboxInsert). */
  around?: AroundOutboxInsert;
  /** A condition over that statement's CTEs: the messages are inserted only when it holds. */
  onlyIf?: Prisma.Sql;
  /** The staging relay's key (`staged_by`): its rows are anyone's to send once it is gone. */
  stagedBy?: number;
}

/**
 * Transactional outbox: inserts the messages in the caller's transaction, so they are published
 * (by the outbox relay, in id order) if and only if the business change commits.
 *
 *   await prisma.$transaction(async (tx) => {
 *     await tx.paidJob.create({ data });
 *     await enqueueSerializedOutbox(tx, [{ topic: 'billing.charged.v1', key: accountId, value: JSON.stringify(event),
 * headers: {} }]);
 *   });
 *
 * Several messages in one INSERT of JSON text, returning their row ids in the array's order.
 * Raw SQL on purpose: through the model API Prisma walked every value object to serialize it
 * again (the answer of a search is a page of 20 jobs), and the caller had to parse its own JSON
 * text back into objects first; here the text goes as one `text[]` parameter and is stored as it
 * is (the column is text, uncompressed: the row lives until its send). With `onlyIf`, all of the
 * messages or none (no ids).
 */
export async function enqueueSerializedOutbox(
  tx: OutboxWriter,
  messages: readonly SerializedOutboxMessage[],
  { around, onlyIf, stagedBy }: OutboxInsertOptions = {},
): Promise<bigint[]> {
  if (messages.length === 0) return [];
  for (const message of messages) if (!message.topic) throw new Error('enqueueSerializedOutbox: topic is required');
  const insert = Prisma.sql`
    INSERT INTO outbox_messages (topic, key, value, headers, staged_by)
    SELECT m.topic, m.key, m.value, m.headers::jsonb, ${stagedBy ?? null}::int
    FROM unnest(
      ${messages.map((m) => m.topic)}::text[],
      ${messages.map((m) => m.key)}::text[],
      ${messages.map((m) => m.value)}::text[],
      ${messages.map((m) => JSON.stringify(m.headers))}::text[]
    ) WITH ORDINALITY AS m(topic, key, value, headers, n)
    ${onlyIf ? Prisma.sql`WHERE ${onlyIf}` : Prisma.empty}
    ORDER BY m.n
    RETURNING id`;
  const rows = await tx.$queryRaw<Array<{ id: bigint }>>(around ? around(insert) : insert);
  if (onlyIf && rows.length === 0) return [];
  if (rows.length !== messages.length)
    throw new Error(
      `enqueueSerializedOutbox: the statement returned ${rows.length} ids for ${messages.length} messages`,
    );
  // the rows take the sequence's values in the array's order (one statement, ordered input)
  return rows.map((row) => row.id).sort(ascending);
}
