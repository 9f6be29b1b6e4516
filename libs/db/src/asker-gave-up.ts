import type { Prisma } from './prisma-client.js';

/**
 * Whether the asker stopped waiting (its `answer_by` has passed): it has answered its caller
 * `internal_error` and the caller retries, so a change made now (a charge, a top-up, an async
 * search or a watch created) would be made twice, or once for a caller who holds nothing of it.
 * No `answer_by`: no bound.
 */
export const askerGaveUp = (answerBy: string | undefined, now = Date.now()): boolean =>
  answerBy !== undefined && Date.parse(answerBy) < now;

/**
 * The same, read from the database's clock inside a transaction once it holds the lock its change
 * takes (an account's row, an account's advisory lock): held to the commit, so a change decided in
 * time commits in time. A wait for the lock (or for a pool connection) past `answer_by` is caught
 * here, after the arrival check passed.
 */
export async function askerGaveUpByNow(tx: Prisma.TransactionClient, answerBy: string | undefined): Promise<boolean> {
  if (answerBy === undefined) return false;
  const [row] = await tx.$queryRaw<Array<{ late: boolean }>>`
    SELECT clock_timestamp() >= ${answerBy}::timestamptz AS late`;
  return row?.late ?? false;
}
