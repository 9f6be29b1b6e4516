import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { untraced, type Logger } from '@jobs/observability';
import { DrainRegistry, KickableLoop, LOGGER } from '@jobs/service-kit';
import { BILLING_CONFIG, type BillingConfig } from '../config.js';
import { BILLING_MARKS } from './billing-marks.js';

const PRUNE_EVERY_MS = 10 * 60_000;
/** Marks deleted per statement; a pass goes on while it finds a full batch. */
const BATCH = 5_000;

/**
 * Billing's marks (`processed_messages`) are there to find a message that comes again. None comes
 * again once Kafka no longer holds it (7 days by Kafka's default, 24 hours on the local broker), so
 * a mark older than `PROCESSED_MARKS_RETENTION_HOURS` (8 days by default) is deleted: the table
 * holds the last days' charges, not every charge ever made. Set-based, in batches, oldest first by
 * the `processed_at` index, every ten minutes on every replica (SKIP LOCKED: replicas never wait
 * for each other).
 */
@Injectable()
export class ProcessedMarksPruner implements OnApplicationBootstrap {
  private readonly loop = new KickableLoop(async () => {
    await untraced(() => this.pruneExpired()).catch((error: unknown) =>
      this.logger.warn({ err: error }, 'pruning processed marks failed; will retry'),
    );
    return PRUNE_EVERY_MS;
  });

  constructor(
    private readonly prisma: PrismaService,
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    drains: DrainRegistry,
  ) {
    drains.register('processed-marks-pruner', () => this.loop.stop());
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** Deletes billing's marks older than the retention at `now`; returns how many. */
  async pruneExpired(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.config.PROCESSED_MARKS_RETENTION_HOURS * 3_600_000);
    let pruned = 0;
    for (;;) {
      const deleted = await this.prisma.$executeRaw`
        DELETE FROM processed_messages p USING (
          SELECT consumer_group, message_id FROM processed_messages
          WHERE processed_at < ${before} AND consumer_group = ${BILLING_MARKS}
          ORDER BY processed_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
        ) expired
        WHERE p.consumer_group = expired.consumer_group AND p.message_id = expired.message_id`;
      pruned += deleted;
      if (deleted < BATCH || this.loop.isStopped) break;
    }
    if (pruned > 0) this.logger.info({ marks: pruned }, 'expired processed marks deleted');
    return pruned;
  }
}
