import { Inject, Injectable } from '@nestjs/common';
import { boardListingPrefix, type BoardAts } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import type { Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';
import { CanonicalJobRepository } from '../canonical-jobs/canonical-job.repository.js';

/**
 * A board the operator removed (`DELETE /admin/crawler/boards/…`: its registration is gone, its
 * last read is still here): every listing of it is no longer listed, so a job no other provider
 * lists closes, through the same merge as any absence (its events staged in dedupe's outbox in
 * the same transaction), and the board's read is forgotten with it.
 */
/** The latest moment a Date holds: every sighting is before it. */
const LATEST_MOMENT = new Date(8_640_000_000_000_000);

@Injectable()
export class CloseRemovedBoardsUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly jobs: CanonicalJobRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(now = new Date()): Promise<void> {
    const removed = await this.prisma.$queryRaw<{ ats: BoardAts; board: string }[]>`
      SELECT r.ats, r.board FROM crawler_board_reads r
      WHERE NOT EXISTS (SELECT 1 FROM crawler_boards b WHERE b.ats = r.ats AND b.board = r.board)`;
    for (const board of removed) {
      await this.jobs.mergeRefreshPart(
        [],
        {
          provider: 'own_index',
          filters: {},
          boardPrefix: boardListingPrefix(board.ats, board.board),
          closed: [],
          // every listing of the board is absent, whenever it was seen: a sighting written by a
          // fetcher whose clock runs ahead of this one is no reason to keep it open
          since: LATEST_MOMENT,
          judgeAbsences: true,
          at: now,
        },
        async (tx) => {
          await tx.crawlerBoardRead.deleteMany({ where: { ats: board.ats, board: board.board } });
        },
      );
      this.logger.info({ ats: board.ats, board: board.board }, 'removed board: its openings closed');
    }
  }
}
