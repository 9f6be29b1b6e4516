import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { untraced, type Logger } from '@jobs/observability';
import { DrainRegistry, KickableLoop, LOGGER } from '@jobs/service-kit';
import { afterFailedChunk, isFinal, STALL_MS, STUCK_MS } from './collection.js';
import { AsyncPipelineProbe } from './async-pipeline.probe.js';
import { AsyncSearchSteps, legAsk } from './async-search.steps.js';
import { ResumeSearchesUseCase } from './resume-searches.usecase.js';

const SWEEP_EVERY_MS = 5_000;
const BATCH = 20;

/**
 * Re-drives async searches that stopped moving: a queued or running search with no step for
 * STALL_MS gets its in-flight chunks asked again as their next try when the probe found them
 * nowhere (lost), or whatever it found when the search has not moved for STUCK_MS (a hop that
 * never drains); such a try counts as a failed one (a chunk whose last try is lost or stuck ends
 * its leg as failed, as a failing provider's would, so the search ends partial instead of never).
 * Its unanswered charge batches are
 * asked again (same batch numbers: billing's mark refuses a second charge, and the search ignores
 * answers it is no longer waiting for). An on_hold search whose account has credits again is
 * resumed (a top-up that raced its hold), a failed chunk is asked again once its next try is due
 * (`retry_at`), and waiting searches get the async pool's free places. Every replica sweeps; SKIP
 * LOCKED keeps two from re-driving one search at once.
 *
 * A chunk still on its way is never asked twice: while its request waits in the outbox or a
 * message of the search waits (or is being handled) on its partition at any hop
 * (AsyncPipelineProbe), the search is left alone and looked at again STALL_MS later. Every hop
 * delivers at least once, so a chunk is lost only when its message was dead-lettered; a search
 * that has not moved for STUCK_MS is re-driven whatever the probe says.
 */
@Injectable()
export class AsyncSearchSweeper implements OnApplicationBootstrap {
  private readonly loop = new KickableLoop(async () => {
    await this.sweep().catch((error: unknown) =>
      this.logger.warn({ err: error }, 'async search sweep failed; will retry'),
    );
    return SWEEP_EVERY_MS;
  });

  /** search id -> when to probe it again, after the probe found its work still on its way */
  private readonly lookAgainAt = new Map<string, number>();

  constructor(
    private readonly prisma: PrismaService,
    private readonly steps: AsyncSearchSteps,
    private readonly pipeline: AsyncPipelineProbe,
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
    for (const [id, at] of this.lookAgainAt) if (at <= now) this.lookAgainAt.delete(id);
    // The probes are untraced (an idle orchestrator makes them every few seconds); a re-drive traces itself.
    // A search waiting for a place in the async pool is not stalled: it has asked for nothing yet. The
    // longest idle first, and none the probe found on its way: a batch is never taken by the same few.
    const stalled = await untraced(() =>
      this.prisma.asyncSearch.findMany({
        where: {
          status: { in: ['queued', 'running'] },
          startedAt: { not: null },
          progressAt: { lt: before },
          id: { notIn: [...this.lookAgainAt.keys()] },
        },
        orderBy: { progressAt: 'asc' },
        select: { id: true },
        take: BATCH,
      }),
    );
    let moved = await this.askDueRetries(now);
    for (const { id } of stalled) {
      // one search that cannot be re-driven (a request that no longer reads) must not hold up the others
      try {
        if (await this.redrive(id, before, now)) moved += 1;
      } catch (error) {
        this.lookAgainAt.set(id, now + STALL_MS);
        this.logger.error({ err: error, search_id: id }, 'async search could not be re-driven; looked at again later');
      }
    }
    // Only those whose account has credits again: searches that cannot move would otherwise fill every batch.
    const held = await untraced(
      () => this.prisma.$queryRaw<{ id: string }[]>`
        SELECT s.id FROM async_searches s JOIN accounts a ON a.id = s.account_id
        WHERE s.status = 'on_hold' AND s.resume_wanted_at IS NULL AND s.progress_at < ${before}
          AND a.credits_remaining > 0
        ORDER BY s.progress_at LIMIT ${BATCH}`,
    );
    for (const search of held) {
      await this.resume.resume(search.id);
      moved += 1;
    }
    // Places freed without a finish (a search put on hold) go to waiting searches here.
    await untraced(() => this.prisma.$transaction((tx) => this.steps.startWaiting(tx), { timeout: 60_000 }));
    this.steps.kick();
    return moved;
  }

  /**
   * Asks again the failed chunks whose next try is due (`retry_at`, set by the chunk's failure),
   * each in its search's locked transaction; one that fails is left for the next pass.
   */
  private async askDueRetries(now: number): Promise<number> {
    const due = await untraced(() =>
      this.prisma.asyncSearchLeg.findMany({
        where: { state: 'fetching', retryAt: { lte: new Date(now) } },
        orderBy: { retryAt: 'asc' },
        select: { searchId: true, provider: true },
        take: BATCH,
      }),
    );
    let asked = 0;
    for (const { searchId, provider } of due) {
      try {
        const moved = await this.prisma.$transaction(
          async (tx) => {
            const search = await this.steps.lock(tx, searchId);
            if (!search || isFinal(search.status)) return false;
            const where = { searchId_provider: { searchId, provider } };
            const leg = await tx.asyncSearchLeg.findUnique({ where });
            if (leg?.state !== 'fetching' || leg.retryAt === null || leg.retryAt.getTime() > now) return false;
            await tx.asyncSearchLeg.update({ where, data: { retryAt: null } });
            await this.steps.askChunk(tx, search, legAsk(leg));
            await tx.asyncSearch.update({ where: { id: searchId }, data: { progressAt: new Date() } });
            return true;
          },
          { timeout: 60_000 },
        );
        if (moved) asked += 1;
      } catch (error) {
        this.logger.error({ err: error, search_id: searchId, provider }, 'a chunk due again could not be asked');
      }
    }
    return asked;
  }

  private async redrive(searchId: string, before: Date, now: number): Promise<boolean> {
    if (this.lookAgainAt.has(searchId)) return false;
    const whereabouts = await this.whereabouts(searchId, now);
    if (whereabouts === 'on_its_way') {
      this.lookAgainAt.set(searchId, now + STALL_MS);
      this.logger.info(
        { search_id: searchId },
        'async search idle but its chunks or charges are still on their way; not asked again',
      );
      return false;
    }
    const moved = await this.prisma.$transaction(
      async (tx) => {
        const locked = await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM async_searches WHERE id = ${searchId} AND status IN ('queued', 'running') AND started_at IS NOT
            NULL AND progress_at < ${before} FOR UPDATE SKIP LOCKED`;
        if (locked.length === 0) return false;
        const search = await this.steps.lock(tx, searchId);
        if (!search) return false;
        // not the failed chunks waiting for their next try: askDueRetries asks them when due
        const legs = await tx.asyncSearchLeg.findMany({
          where: { searchId, state: 'fetching', OR: [{ retryAt: null }, { retryAt: { lte: new Date(now) } }] },
        });
        let givenUp = 0;
        for (const leg of legs) {
          const where = { searchId_provider: { searchId, provider: leg.provider } };
          if (leg.retryAt !== null) {
            // a failed try now due: its try number moved on when it failed
            await tx.asyncSearchLeg.update({ where, data: { retryAt: null } });
            await this.steps.askChunk(tx, search, legAsk(leg));
          } else if (afterFailedChunk(leg.attempt) === 'give_up') {
            // neither answered nor on its way (lost at some hop: a dead-lettered message), or held by
            // a hop that never drains, on every try: no further try would fare better; the search
            // goes on without this provider
            await tx.asyncSearchLeg.update({ where, data: { state: 'failed', failure: 'provider_error' } });
            givenUp += 1;
          } else {
            // a lost chunk, or one a hop has held for STUCK_MS, counts as a failed try, so a message
            // lost or held the same way every time ends its leg instead of holding the search
            // forever; an answer to the earlier try is then ignored
            const next = { ...leg, attempt: leg.attempt + 1 };
            await tx.asyncSearchLeg.update({ where, data: { attempt: next.attempt } });
            await this.steps.askChunk(tx, search, legAsk(next));
          }
        }
        const pending = await tx.asyncSearchResult.findMany({
          where: { searchId, state: 'pending' },
          orderBy: { seq: 'asc' },
          select: { jobId: true, chargeBatch: true },
        });
        const batches = new Map<number, string[]>();
        for (const row of pending) batches.set(row.chargeBatch!, [...(batches.get(row.chargeBatch!) ?? []), row.jobId]);
        for (const [batch, jobIds] of batches) await this.steps.askCharge(tx, search, batch, jobIds);
        await tx.asyncSearch.update({ where: { id: searchId }, data: { progressAt: new Date() } });
        this.logger.warn(
          { search_id: searchId, chunks: legs.length - givenUp, legs_given_up: givenUp, charge_batches: batches.size },
          'async search stalled; chunks and charges asked again',
        );
        // a search with nothing in flight takes its next step (e.g. a wave that never opened)
        await this.steps.advance(tx, search);
        return true;
      },
      { timeout: 60_000 },
    );
    this.steps.kick();
    return moved;
  }

  /**
   * Where the search's unanswered work is (read without the lock: the re-drive checks progress again under it): still
   * on its way at some hop, lost (the probe found it nowhere), or not looked for (`stuck`: no step for STUCK_MS, so it
   * is asked again whatever a hop holds).
   */
  private async whereabouts(searchId: string, now: number): Promise<'on_its_way' | 'lost' | 'stuck'> {
    const search = await this.prisma.asyncSearch.findUnique({
      where: { id: searchId },
      select: { accountId: true, progressAt: true },
    });
    if (!search || search.progressAt.getTime() < now - STUCK_MS) return 'stuck';
    const legs = await this.prisma.asyncSearchLeg.findMany({
      where: { searchId, state: 'fetching', retryAt: null },
      select: { provider: true },
    });
    const charges = await this.prisma.asyncSearchResult.findMany({
      where: { searchId, state: 'pending' },
      distinct: ['chargeBatch'],
      select: { chargeBatch: true },
    });
    try {
      const holds = await this.pipeline.holds(this.prisma, {
        searchId,
        accountId: search.accountId,
        providers: legs.map((l) => l.provider),
        charges: charges.length,
      });
      return holds ? 'on_its_way' : 'lost';
    } catch (error) {
      // the broker cannot say: wait for the next look rather than risk asking twice
      this.logger.warn(
        { err: error, search_id: searchId },
        'could not read the async pipeline backlog; the search is looked at again later',
      );
      return 'on_its_way';
    }
  }
}
