import type { Tx } from './async-search.steps.js';

type Mode = 'live' | 'test';

/**
 * Takes the account's turn among its async search creates (an advisory lock held to the commit):
 * taken in turn, they never pass the account's cap of unfinished searches together.
 */
export async function takeAccountSearchTurn(tx: Tx, accountId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`async-searches:${accountId}`}, 0))`;
}

/**
 * The account's searches of `mode` not finished (what its cap counts): queued, running, and on hold
 * (each will collect again once the account has credits), but `except`.
 */
export function unfinishedSearches(tx: Tx, accountId: string, mode: Mode, except?: string): Promise<number> {
  return tx.asyncSearch.count({
    where: {
      accountId,
      mode,
      status: { in: ['queued', 'running', 'on_hold'] },
      ...(except ? { id: { not: except } } : {}),
    },
  });
}
