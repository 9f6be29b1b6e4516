import type { Prisma } from '@jobs/db';

/**
 * Whether the asker stopped waiting (its `answer_by` has passed): it has answered its caller
 * `internal_error` and the caller retries, so a change billing made now would be paid for twice.
 * No `answer_by`: no bound.
 */
export const askerGaveUp = (answerBy: string | undefined, now = Date.now()): boolean =>
  answerBy !== undefined && Date.parse(answerBy) < now;

/**
 * The same, read from the database's clock inside a transaction once it holds the account's row
 * lock: held to the commit, so a change decided in time commits in time. A wait for the lock (or
 * for a pool connection) past `answer_by` is caught here, after the arrival check passed.
 */
export async function askerGaveUpByNow(tx: Prisma.TransactionClient, answerBy: string | undefined): Promise<boolean> {
  if (answerBy === undefined) return false;
  const [row] = await tx.$queryRaw<Array<{ late: boolean }>>`
    SELECT clock_timestamp() >= ${answerBy}::timestamptz AS late`;
  return row?.late ?? false;
}
