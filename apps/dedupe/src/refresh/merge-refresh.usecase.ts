import { Inject, Injectable } from '@nestjs/common';
import {
  boardListingPrefix,
  boardReadWhole,
  isWindowSweep,
  type BoardReadOutcome,
  type RefreshRecordsFetched,
} from '@jobs/contracts';
import type { Prisma } from '@jobs/db';
import { annotateStage, type Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';
import { CanonicalJobRepository } from '../canonical-jobs/canonical-job.repository.js';
import { recordBoardRead, sightBoardListings } from '../crawler-boards/board-listings.js';
import { owesReads, oweScopeReads } from './owed-reads.js';
import { RefreshPlanner } from './refresh-planner.js';

/**
 * One part of a refresh sweep: its open records are merged (unchanged known listings are
 * sightings only; new listings open jobs, changed ones update them, re-listings repost), the
 * openings the own crawler showed closed are unlisted with their reason, and the final part of
 * a sweep read whole also unlists this provider's sources of the scope's open jobs not seen
 * since the sweep began. A job with no listed source left closes. A failed, timed-out or
 * truncated sweep closes nothing, and a round's such sweep owes the provider's next round its
 * scope (owed-reads.ts). A board read that skipped items it could not read keeps the listings of
 * those that named their ids listed, and judges no absences when one named none: a listing missing
 * from its records may be that one. Every change is staged in dedupe's outbox
 * in the same transaction, and the final part marks its sweep ended there too.
 */
@Injectable()
export class MergeRefreshUseCase {
  constructor(
    private readonly jobs: CanonicalJobRepository,
    private readonly planner: RefreshPlanner,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(message: RefreshRecordsFetched.Value): Promise<void> {
    const open = message.records.filter((r) => r.status !== 'closed');
    const closed = message.records.filter((r) => r.status === 'closed');
    const complete = message.outcome === 'ok' && message.final && message.complete;
    const board = message.scope.board;
    const boardPrefix = board ? boardListingPrefix(board.ats, board.board) : undefined;
    const boardRead = message.board_read;
    const at = new Date(message.fetched_at);
    const listedUnread = boardRead?.error === null ? (boardRead.skipped_ids ?? []) : [];
    const finished = message.final
      ? async (tx: Prisma.TransactionClient) => {
          // an unchanged board: every listing it had is seen, none judged absent; a changed one:
          // the listings of the items it skipped under their ids are still on it
          if (boardPrefix && boardRead && !boardRead.changed && boardRead.error === null)
            await sightBoardListings(tx, boardPrefix, at);
          if (boardPrefix && boardRead?.changed && listedUnread.length > 0)
            await sightBoardListings(tx, boardPrefix, at, listedUnread);
          await tx.refreshSweep
            .updateMany({
              where: {
                passId: message.refresh_id,
                provider: message.provider,
                key: message.scope.key,
                finishedAt: null,
              },
              data: {
                finishedAt: new Date(),
                complete,
                ok: message.outcome === 'ok',
                records: { increment: message.records.length },
              },
            })
            .then(() => undefined);
          if (board && boardRead) await recordBoardRead(tx, board, boardRead, at);
          if (owesReads(message.kind, complete)) await oweScopeReads(tx, message.provider, message.scope);
        }
      : undefined;
    const { sightings, merged } = await this.jobs.mergeRefreshPart(
      open,
      {
        provider: message.provider,
        filters: message.scope.filters,
        ...(message.scope.listing_ids ? { listingIds: message.scope.listing_ids } : {}),
        ...(boardPrefix ? { boardPrefix } : {}),
        ...(listedUnread.length > 0 ? { listedUnread } : {}),
        ...(boardPrefix && message.read_listing_ids
          ? { boardListed: new Set(message.read_listing_ids.filter((id) => id.startsWith(boardPrefix))) }
          : {}),
        closed,
        since: new Date(message.started_at),
        onlyPart: message.part === 0 && message.final,
        judgeAbsences: complete && !isWindowSweep(message.kind) && (boardRead ? readWhole(boardRead) : true),
        at,
      },
      finished,
    );
    annotateStage({
      'refresh.id': message.refresh_id,
      provider: message.provider,
      'refresh.kind': message.kind,
      'refresh.part': message.part,
      'records.in': message.records.length,
      'records.merged': merged,
    });
    if (message.final) {
      this.logger.info(
        {
          refresh_id: message.refresh_id,
          scope: message.scope.key,
          kind: message.kind,
          provider: message.provider,
          outcome: message.outcome,
          complete,
          parts: message.part + 1,
        },
        'refresh sweep merged',
      );
      this.planner.kick();
    } else {
      this.logger.debug(
        {
          refresh_id: message.refresh_id,
          scope: message.scope.key,
          part: message.part,
          sightings,
          merged,
          closed: closed.length,
        },
        'refresh part merged',
      );
    }
  }
}

/**
 * A board read that judges absences: the board changed, and every item of its answer became a
 * record or was skipped under the id it named. The fetcher already ends a sweep that skipped an
 * item without one incomplete; held here too, so that no producer's message closes listings its
 * read skipped.
 */
function readWhole(read: BoardReadOutcome): boolean {
  return read.changed && boardReadWhole(read);
}
