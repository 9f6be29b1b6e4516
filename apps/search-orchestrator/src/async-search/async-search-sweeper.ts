import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { untraced, type Logger } from '@jobs/observability';
import { DrainRegistry, KickableLoop, LOGGER } from '@jobs/service-kit';
import { STALL_MS } from './collection.js';
import { accountCredits, AsyncSearchSteps, positionOf } from './async-search.steps.js';
import { ResumeSearchesUseCase } from './resume-searches.usecase.js';

const SWEEP_EVERY_MS = 5_000;
const BATCH = 20;

/**
 * Re-drives async searches that stopped moving: a queued or running search with no step for
 * STALL_MS gets its in-flight chunks and unanswered charge batches asked again (same chunk, try
 * and batch numbers: the fetcher and dedupe redo harmless work, billing's mark refuses a second
 * charge, and the search ignores answers it is no longer waiting for), and an on_hold search
 * whose account has credits again is resumed (a top-up that raced its hold). Every replica
 * sweeps; SKIP LOCKED keeps two from re-driving one search at once.
 */
@Injectable()
export class AsyncSearchSweeper implements OnApplicationBootstrap {
  private readonly loop = new KickableLoop(async () => {
    await this.sweep().catch((error: unknown) => this.logger.warn({ err: error }, 'async search sweep failed; will retry'));
    return SWEEP_EVERY_MS;
  });

  constructor(
    private readonly prisma: PrismaService,
    private readonly steps: AsyncSearchSteps,
    private readonly resume: ResumeSearchesUseCase,
    @Inject(LOGGER) private readonly logger: Logger,
    drains: DrainRegistry,
  ) {
    drains.register('async-search-sweeper', () => this.loop.stop());
  }

  onApplicationBootstrap(): void {
    this.loop.start(SWEEP_EVERY_MS);
  }

  /** One pass; returns how many searches it re-drove or resumed. */
  async sweep(now = Date.now()): Promise<number> {
    const before = new Date(now - STALL_MS);
    // The probes are untraced (an idle orchestrator makes them every few seconds); a re-drive traces itself.
    const stalled = await untraced(() => this.prisma.asyncSearch.findMany({ where: { status: { in: ['queued', 'running'] }, progressAt: { lt: before } }, select: { id: true }, take: BATCH }));
    let moved = 0;
    for (const { id } of stalled) if (await this.redrive(id, before)) moved += 1;
    const held = await untraced(() => this.prisma.asyncSearch.findMany({ where: { status: 'on_hold', progressAt: { lt: before } }, select: { id: true, accountId: true }, take: BATCH }));
    for (const search of held) {
      if ((await accountCredits(this.prisma, search.accountId)) <= 0) continue;
      await this.resume.resume(search.id);
      moved += 1;
    }
    return moved;
  }

  private async redrive(searchId: string, before: Date): Promise<boolean> {
    const moved = await this.prisma.$transaction(
      async (tx) => {
        const locked = await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM async_searches WHERE id = ${searchId} AND status IN ('queued', 'running') AND progress_at < ${before} FOR UPDATE SKIP LOCKED`;
        if (locked.length === 0) return false;
        const search = await this.steps.lock(tx, searchId);
        if (!search) return false;
        const legs = await tx.asyncSearchLeg.findMany({ where: { searchId, state: 'fetching' } });
        for (const leg of legs) await this.steps.askChunk(tx, search, leg.provider, leg.chunk, leg.attempt, positionOf(leg));
        const pending = await tx.asyncSearchResult.findMany({ where: { searchId, state: 'pending' }, orderBy: { seq: 'asc' }, select: { jobId: true, chargeBatch: true } });
        const batches = new Map<number, string[]>();
        for (const row of pending) batches.set(row.chargeBatch!, [...(batches.get(row.chargeBatch!) ?? []), row.jobId]);
        for (const [batch, jobIds] of batches) await this.steps.askCharge(tx, search, batch, jobIds);
        await tx.asyncSearch.update({ where: { id: searchId }, data: { progressAt: new Date() } });
        this.logger.warn({ search_id: searchId, chunks: legs.length, charge_batches: batches.size }, 'async search stalled; chunks and charges asked again');
        // a search with nothing in flight takes its next step (e.g. a wave that never opened)
        await this.steps.advance(tx, search);
        return true;
      },
      { timeout: 60_000 },
    );
    this.steps.kick();
    return moved;
  }
}
