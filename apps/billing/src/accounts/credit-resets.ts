import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { untraced, type Logger } from '@jobs/observability';
import { OutboxRelay } from '@jobs/outbox';
import { DrainRegistry, KickableLoop, LOGGER } from '@jobs/service-kit';
import { stageCreditsRaised } from './credits-raised.js';
import { CREDIT_PERIOD_DAYS } from './open-account.usecase.js';

const RESET_EVERY_MS = 60_000;
/** Accounts reset per statement; a pass goes on while it finds a full batch. */
const BATCH = 1_000;

/**
 * Credits reset at `credits_reset_at`: the account's allowance (the credits it was opened with,
 * `monthly_credits`) is there again. The balance becomes at least the allowance: what is left of
 * it and every top-up are kept, never taken away. `credits_reset_at` moves on by whole periods
 * past the moment of the reset, so an account whose resets were missed (billing down) is reset
 * once, not once per missed period. Set-based: one statement for the accounts due, every minute,
 * on every replica (a row is reset once: SKIP LOCKED, and a row reset meanwhile is no longer
 * due). An account whose balance rose gets `account.credits.added` and a `release_held` in the
 * same transaction, so its on_hold async searches resume and its held watch events are released,
 * as after a top-up.
 * No ledger line: the ledger lists charges of jobs.
 */
@Injectable()
export class CreditResets implements OnApplicationBootstrap {
  private readonly loop = new KickableLoop(async () => {
    await untraced(() => this.resetDue()).catch((error: unknown) =>
      this.logger.warn({ err: error }, 'credit reset pass failed; will retry'),
    );
    return RESET_EVERY_MS;
  });

  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: OutboxRelay,
    @Inject(LOGGER) private readonly logger: Logger,
    drains: DrainRegistry,
  ) {
    drains.register('credit-resets', () => this.loop.stop());
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** Resets every account due by `now`; returns how many. */
  async resetDue(now = new Date()): Promise<number> {
    let reset = 0;
    for (;;) {
      const batch = await this.resetBatch(now);
      reset += batch;
      if (batch < BATCH) break;
    }
    if (reset > 0) this.logger.info({ accounts: reset }, 'credits reset');
    return reset;
  }

  private async resetBatch(now: Date): Promise<number> {
    const period = CREDIT_PERIOD_DAYS * 86_400;
    const rows = await this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<Array<{ id: string; credits_remaining: number; added: number }>>`
        WITH due AS (
          SELECT id, credits_remaining AS before FROM accounts WHERE credits_reset_at <= ${now}
          ORDER BY credits_reset_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
        )
        UPDATE accounts a SET
          credits_remaining = GREATEST(a.credits_remaining, a.monthly_credits),
          credits_reset_at = a.credits_reset_at + make_interval(secs => ${period}::double precision *
            (floor(extract(epoch FROM ${now}::timestamptz - a.credits_reset_at) / ${period}) + 1)),
          updated_at = ${now}
        FROM due WHERE a.id = due.id
        RETURNING a.id, a.credits_remaining, a.credits_remaining - due.before AS added`;
      const raised = rows
        .filter((row) => row.added > 0)
        .map((row) => ({ accountId: row.id, amount: row.added, creditsRemaining: row.credits_remaining }));
      await stageCreditsRaised(this.outbox, tx, raised, now, 'credits_reset');
      return rows;
    });
    if (rows.some((row) => row.added > 0)) this.outbox.kick();
    return rows.length;
  }
}
