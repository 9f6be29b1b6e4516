// The own crawler's board listings in the store: own_index sources whose id starts with a board's prefix.
import {
  BoardAtsSchema,
  boardListingPrefix,
  boardReadWhole,
  type BoardAts,
  type BoardReadOutcome,
} from '@jobs/contracts';
import { Prisma } from '@jobs/db';

/** A SQL pattern matching the ids of every board's listings (`greenhouse:…`, `lever:…`, `ashby:…`). */
export const BOARD_LISTING_PATTERN = `^(${BoardAtsSchema.options.join('|')}):`;

/**
 * A condition on `job_sources s` that keeps the own crawler's other listings only: sweeps of the
 * simulated own index (catalog, companies, its change feed) never judge a board's listings absent.
 */
export const notBoardListing = Prisma.sql`NOT (s.provider = 'own_index' AND s.provider_job_id ~ ${BOARD_LISTING_PATTERN})`;

/**
 * A condition on `job_sources s` that keeps one board's listings: the ids from its prefix up to
 * the next prefix, byte-wise, so the own crawler's listing index (`provider_job_id COLLATE "C"`,
 * migration 20261202093000) reads just them; `starts_with` would scan every own-index listing.
 */
export function ofBoard(prefix: string): Prisma.Sql {
  const next = `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
  return Prisma.sql`s.provider = 'own_index' AND s.provider_job_id COLLATE "C" >= ${prefix} AND
    s.provider_job_id COLLATE "C" < ${next}`;
}

/**
 * Listings a board still shows, seen now without a record: every listed one of a board that
 * answered unchanged, or those of the given ids (items the read skipped under their ids). One
 * statement for the sources and their jobs, so none is judged absent and their ages stay fresh.
 */
export async function sightBoardListings(
  tx: Prisma.TransactionClient,
  prefix: string,
  at: Date,
  ids?: readonly string[],
): Promise<number> {
  const only = ids ? Prisma.sql`AND s.provider_job_id = ANY(${[...ids]}::text[])` : Prisma.empty;
  return tx.$executeRaw`
    WITH seen AS (
      UPDATE job_sources AS s SET last_seen_at = GREATEST(s.last_seen_at, ${at})
      WHERE ${ofBoard(prefix)} ${only} AND s.listed AND s.last_seen_at < ${at}
      RETURNING s.canonical_job_id
    )
    UPDATE canonical_jobs AS j SET last_seen_at = GREATEST(j.last_seen_at, ${at}),
      last_verified_at = GREATEST(COALESCE(j.last_verified_at, ${at}), ${at})
    WHERE j.id IN (SELECT canonical_job_id FROM seen)`;
}

/** How a board's read went, for the admin API's list: when, how many open jobs it keeps, why it failed. */
export async function recordBoardRead(
  tx: Prisma.TransactionClient,
  board: { ats: BoardAts; board: string },
  read: BoardReadOutcome,
  at: Date,
): Promise<void> {
  const prefix = boardListingPrefix(board.ats, board.board);
  const [counted] = await tx.$queryRaw<{ open: number }[]>`
    SELECT count(DISTINCT s.canonical_job_id)::int AS open FROM job_sources s
    JOIN canonical_jobs j ON j.id = s.canonical_job_id
    WHERE ${ofBoard(prefix)} AND s.listed AND j.status = 'open'`;
  const ok = read.error === null;
  // a read that does not stand for the whole board keeps no validators: the next read is whole
  // again, never an unchanged answer that would take the listings it could not judge as seen
  const kept = boardReadWhole(read) ? read.validators : {};
  const validators = ok
    ? {
        etag: kept.etag ?? null,
        lastModified: kept.last_modified ?? null,
        contentHash: kept.content_hash ?? null,
      }
    : {};
  await tx.crawlerBoardRead.upsert({
    where: { ats_board: { ats: board.ats, board: board.board } },
    create: {
      ats: board.ats,
      board: board.board,
      lastReadAt: ok ? at : null,
      lastError: read.error,
      openJobs: counted?.open ?? 0,
      ...validators,
    },
    update: { ...(ok ? { lastReadAt: at } : {}), lastError: read.error, openJobs: counted?.open ?? 0, ...validators },
  });
}
