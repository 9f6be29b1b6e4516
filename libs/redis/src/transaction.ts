import type { ChainableCommander } from 'ioredis';

/**
 * Runs a MULTI and gives its commands' replies, or throws the first command's error: Redis runs
 * the rest of a transaction past a failed command, and ioredis resolves `exec()` with each
 * command's error beside its reply (null when the transaction was discarded).
 */
export async function execTransaction(multi: ChainableCommander, what: string): Promise<unknown[]> {
  const replies = await multi.exec();
  const failed = replies?.find(([error]) => error);
  if (!replies || failed) throw failed?.[0] ?? new Error(`Redis discarded ${what}`);
  return replies.map(([, value]) => value);
}
