import { Topics, type EventChargeRequested } from '@jobs/contracts';
import type { OutboxWriter } from '@jobs/db';
import type { OutboxRelay } from '@jobs/outbox';

/** An account whose balance rose, and by how much. */
export interface CreditsRaised {
  accountId: string;
  amount: number;
  creditsRemaining: number;
}

type Because = EventChargeRequested.ReleaseHeld['release_held']['because'];

/**
 * Stages, in the transaction that raised the balances, what every rise is announced with:
 * `account.credits.added` (on_hold async searches resume) and a `release_held` on the account's
 * `event.charge.requested` partition (its held watch events go out behind the stops queued
 * before). A top-up and a credit reset announce alike.
 */
export async function stageCreditsRaised(
  outbox: OutboxRelay,
  tx: OutboxWriter,
  raised: readonly CreditsRaised[],
  addedAt: Date,
  because: Exclude<Because, 'more_held'>,
): Promise<void> {
  if (raised.length === 0) return;
  await outbox.stageMany(
    tx,
    Topics.AccountCreditsAdded,
    raised.map((row) => ({
      v: 1 as const,
      account_id: row.accountId,
      amount: row.amount,
      credits_remaining: row.creditsRemaining,
      added_at: addedAt.toISOString(),
    })),
  );
  await outbox.stageMany(
    tx,
    Topics.EventChargeRequested,
    raised.map((row) => ({ v: 1 as const, account_id: row.accountId, release_held: { because } })),
  );
}
