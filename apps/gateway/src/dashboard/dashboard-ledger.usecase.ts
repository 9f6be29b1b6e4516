import { Injectable } from '@nestjs/common';
import { ledgerEntryView, type DashboardPage, type LedgerEntry, type LedgerRequestView } from '@jobs/contracts';
import { keysetPage, NEWEST_FIRST, newestFirstAfter, nextCursorOf } from '@jobs/cursors';
import { Prisma, PrismaService } from '@jobs/db';
import { ApiError } from '../http/api-error.js';

/** Requests per page of the grouped ledger, and lines per page of one request. */
export const LEDGER_REQUESTS_PAGE_SIZE = 20;
export const LEDGER_LINES_PAGE_SIZE = 50;

/** `<last line's time, ms>.<request id>`: where the next page of requests starts (opaque to the page). */
const REQUESTS_CURSOR = /^(\d{1,15})\.([A-Za-z0-9_-]{1,128})$/;
/** `<time, ms>.<line id>` of the last line served. */
const LINES_CURSOR = /^(\d{1,15})\.(led_[A-Za-z0-9_-]{1,128})$/;

interface RequestRow {
  request_id: string;
  operation: string;
  entries: number;
  charged: number;
  credits: number;
  first_at: Date;
  last_at: Date;
}

/**
 * The ledger in the dashboard, one row per request (a search of twenty jobs is one row, not
 * twenty) with its lines behind it. A read of billing's ledger table, which only billing writes,
 * like the usage per day. The grouping reads all of the account's lines up to the page's start;
 * the indexes on (account_id, created_at) and (request_id) serve it and the lines of one request.
 */
@Injectable()
export class DashboardLedgerUseCase {
  constructor(private readonly prisma: PrismaService) {}

  /** Requests newest first (by their latest line), keyset-paged. */
  async requests(accountId: string, cursor: string | undefined): Promise<DashboardPage<LedgerRequestView>> {
    const after = cursor === undefined ? undefined : REQUESTS_CURSOR.exec(cursor);
    if (after === null)
      throw new ApiError('invalid_request', 'cursor is not one this endpoint gave.', { param: 'cursor' });
    const olderThanCursor = after
      ? Prisma.sql`HAVING (max(created_at), request_id) < (${new Date(Number(after[1]))}::timestamptz, ${after[2]!})`
      : Prisma.empty;
    const rows = await this.prisma.$queryRaw<RequestRow[]>`
      SELECT request_id, min(operation) AS operation, count(*)::int AS entries,
             count(*) FILTER (WHERE reason = 'charged')::int AS charged,
             coalesce(sum(credits), 0)::int AS credits, min(created_at) AS first_at, max(created_at) AS last_at
        FROM ledger_entries
       WHERE account_id = ${accountId}
       GROUP BY request_id
       ${olderThanCursor}
       ORDER BY max(created_at) DESC, request_id DESC
       LIMIT ${LEDGER_REQUESTS_PAGE_SIZE + 1}`;
    const page = keysetPage(rows, LEDGER_REQUESTS_PAGE_SIZE);
    return {
      data: page.rows.map((row) => ({
        request_id: row.request_id,
        operation: row.operation,
        entries: row.entries,
        charged: row.charged,
        already_paid: row.entries - row.charged,
        credits: row.credits,
        first_at: row.first_at.toISOString(),
        last_at: row.last_at.toISOString(),
      })),
      next_cursor: nextCursorOf(page, (last) => `${last.last_at.getTime()}.${last.request_id}`),
    };
  }

  /** The lines of one of the account's requests, newest first; an unknown request has none. */
  async lines(accountId: string, requestId: string, cursor: string | undefined): Promise<DashboardPage<LedgerEntry>> {
    const after = cursor === undefined ? undefined : LINES_CURSOR.exec(cursor);
    if (after === null)
      throw new ApiError('invalid_request', 'cursor is not one this endpoint gave.', { param: 'cursor' });
    const rows = await this.prisma.ledgerEntry.findMany({
      where: { accountId, requestId, ...newestFirstAfter(after && { at: new Date(Number(after[1])), id: after[2]! }) },
      orderBy: NEWEST_FIRST,
      take: LEDGER_LINES_PAGE_SIZE + 1,
    });
    const page = keysetPage(rows, LEDGER_LINES_PAGE_SIZE);
    return {
      data: page.rows.map(ledgerEntryView),
      next_cursor: nextCursorOf(page, (last) => `${last.createdAt.getTime()}.${last.id}`),
    };
  }
}
