import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import pg from 'pg';
import { LOGGER } from '@jobs/service-kit';
import type { Logger } from '@jobs/observability';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
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

/** Prepared once per connection, so PostgreSQL parses and plans it once. */
const BALANCES: pg.QueryConfig = {
  name: 'gateway-account-balances',
  text: 'SELECT id, credits_remaining, credits_reset_at FROM accounts WHERE id = ANY($1::text[])',
};

/**
 * Account balances as PostgreSQL holds them now: never cached (billing changes them with every
 * charge, and `GET /v1/account` must show a charge as soon as its answer is out). The reads of
 * concurrent requests share a statement (BatchedReads: one in flight, the reads asked for
 * meanwhile go together in the next), so under load the database and this process pay one
 * round trip per batch instead of one per request, and each read still starts after it was
 * asked for.
 *
 * The statement runs on a connection of its own (one statement in flight needs one) as a named
 * prepared statement through `pg`, not through Prisma: Prisma's `$queryRaw` adds more CPU per
 * call than this small statement costs (its call-site capture, request pipeline and result
 * mapping). The pg instrumentation traces it like any other query.
 */
@Injectable()
export class AccountBalances implements OnApplicationShutdown {
  private readonly pool: pg.Pool;
  private readonly reads: BatchedReads<string, Balance>;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig, @Inject(LOGGER) logger: Logger) {
    this.pool = new pg.Pool({
      connectionString: config.DATABASE_URL,
      max: 1,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      // One statement at a time carries every waiting read: a stuck one must not hold them for ever.
      statement_timeout: 5_000,
    });
    // A connection that fails while idle is dropped by the pool (the next read opens another).
    this.pool.on('error', (error) => logger.warn({ err: error }, 'account balance connection lost'));
    this.reads = new BatchedReads(async (accountIds) => {
      const { rows } = await this.pool.query<BalanceRow>({ ...BALANCES, values: [accountIds] });
      return new Map(
        rows.map((row) => [row.id, { creditsRemaining: row.credits_remaining, creditsResetAt: row.credits_reset_at }]),
      );
    });
  }

  /** The account's balance, or undefined when the account no longer exists. */
  of(accountId: string): Promise<Balance | undefined> {
    return this.reads.read(accountId);
  }

  /** The credits an answer reports as left: 0 for an account that no longer exists. */
  async creditsRemaining(accountId: string): Promise<number> {
    return (await this.of(accountId))?.creditsRemaining ?? 0;
  }

  /** After the HTTP server has closed (module destroy hooks run before it stops taking requests). */
  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
