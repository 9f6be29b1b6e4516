import { Injectable } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { BatchedReads } from './batched-reads.js';

export interface Balance {
  creditsRemaining: number;
  creditsResetAt: Date;
}

interface BalanceRow {
  id: string;
  credits_remaining: number;
  credits_reset_at: Date;
}

/**
 * Account balances as PostgreSQL holds them now: never cached (billing changes them with every
 * charge, and `GET /v1/account` must show a charge as soon as its answer is out). The reads of
 * concurrent requests share a statement (BatchedReads: one in flight, the reads asked for
 * meanwhile go together in the next), so under load the database and this process pay one
 * round trip per batch instead of one per request, and each read still starts after it was
 * asked for.
 */
@Injectable()
export class AccountBalances {
  private readonly reads: BatchedReads<string, Balance>;

  constructor(prisma: PrismaService) {
    this.reads = new BatchedReads(async (accountIds) => {
      const rows = await prisma.$queryRaw<BalanceRow[]>`SELECT id, credits_remaining, credits_reset_at FROM accounts WHERE id = ANY(${accountIds}::text[])`;
      return new Map(rows.map((row) => [row.id, { creditsRemaining: row.credits_remaining, creditsResetAt: row.credits_reset_at }]));
    });
  }

  /** The account's balance, or undefined when the account no longer exists. */
  of(accountId: string): Promise<Balance | undefined> {
    return this.reads.read(accountId);
  }
}
