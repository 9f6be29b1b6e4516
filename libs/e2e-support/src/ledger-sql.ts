import type pg from 'pg';

/** An account's money as PostgreSQL holds it (counts come back as strings from COUNT/SUM). */
export interface AccountLedgerTotals {
  credits_remaining: number;
  /** Sum of the ledger's credits. */
  credits: string;
  charged_lines: string;
  charged_jobs: string;
  paid_jobs: string;
  lines: string;
}

/**
 * Balance, ledger and paid jobs of one account in one statement, read straight from the tables
 * (`accounts`, `ledger_entries`, `paid_jobs`): the crash and fault tests check that they agree
 * (credits spent = ledger credits = charged lines = distinct charged jobs = paid jobs).
 */
export async function accountLedgerTotals(db: pg.ClientBase, accountId: string): Promise<AccountLedgerTotals> {
  const { rows } = await db.query<AccountLedgerTotals>(
    `SELECT a.credits_remaining,
            (SELECT COALESCE(SUM(credits), 0) FROM ledger_entries WHERE account_id = a.id) AS credits,
            (SELECT COUNT(*) FROM ledger_entries WHERE account_id = a.id AND reason = 'charged') AS charged_lines,
            (SELECT COUNT(DISTINCT job_id) FROM ledger_entries
              WHERE account_id = a.id AND reason = 'charged') AS charged_jobs,
            (SELECT COUNT(*) FROM paid_jobs WHERE account_id = a.id) AS paid_jobs,
            (SELECT COUNT(*) FROM ledger_entries WHERE account_id = a.id) AS lines
       FROM accounts a WHERE a.id = $1`,
    [accountId],
  );
  if (!rows[0]) throw new Error(`no account ${accountId}`);
  return rows[0];
}
