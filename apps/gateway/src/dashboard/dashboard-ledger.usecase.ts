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

/** Lines read at a time while walking the account's ledger for a page's requests: first, and at most. */
const WALK_FIRST_LINES = 64;
const WALK_LINES = 1_000;

/** Where the previous page of requests ended: its last request's newest line, and its id. */
interface RequestsBefore {
  at: Date;
  requestId: string;
}

/**
 * The ledger in the dashboard, one row per request (a search of twenty jobs is one row, not
 * twenty) with its lines behind it. A read of billing's ledger table, which only billing writes,
 * like the usage per day. A page walks the account's lines newest first along its
 * (account_id, created_at) index until it has met its requests, then sums their lines by the
 * (request_id) index: it reads the lines of its own requests and of those interleaved with them,
 * never the account's whole history.
 */
@Injectable()
export class DashboardLedgerUseCase {
  constructor(private readonly prisma: PrismaService) {}

  /** Requests newest first (by their latest line), keyset-paged. */
  async requests(accountId: string, cursor: string | undefined): Promise<DashboardPage<LedgerRequestView>> {
    const after = cursor === undefined ? undefined : REQUESTS_CURSOR.exec(cursor);
    if (after === null)
      throw new ApiError('invalid_request', 'cursor is not one this endpoint gave.', { param: 'cursor' });
    const before = after ? { at: new Date(Number(after[1])), requestId: after[2]! } : undefined;
    const ids = await this.pageRequestIds(accountId, before);
    const rows =
      ids.length === 0
        ? []
        : await this.prisma.$queryRaw<RequestRow[]>`
      SELECT request_id, min(operation) AS operation, count(*)::int AS entries,
             count(*) FILTER (WHERE reason = 'charged')::int AS charged,
             coalesce(sum(credits), 0)::int AS credits, min(created_at) AS first_at, max(created_at) AS last_at
        FROM ledger_entries
       WHERE account_id = ${accountId} AND request_id = ANY(${ids}::text[])
       GROUP BY request_id
       ORDER BY max(created_at) DESC, request_id DESC`;
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

  /**
   * The ids of the page's requests and one more, newest first by their newest line. The walk meets
   * each request first at its newest line; after a cursor it starts at the cursor's moment and
   * leaves out the requests an earlier page had (a line past that moment, or at it with an id not
   * before the cursor's). Once it has enough it reads on through the lines of the same moment, so
   * that the page's query, which orders requests tied on it by id, sees them all.
   */
  private async pageRequestIds(accountId: string, before: RequestsBefore | undefined): Promise<string[]> {
    const wanted = LEDGER_REQUESTS_PAGE_SIZE + 1;
    const met = new Set<string>();
    const taken: Array<{ id: string; at: number }> = [];
    let boundary: number | undefined;
    let from: { at: Date; id: string } | undefined;
    let limit = WALK_FIRST_LINES;
    for (;;) {
      const lines = await this.prisma.$queryRaw<Array<{ id: string; request_id: string; created_at: Date }>>`
        SELECT id, request_id, created_at FROM ledger_entries
         WHERE account_id = ${accountId}
           ${before ? Prisma.sql`AND created_at <= ${before.at}` : Prisma.empty}
           ${from ? Prisma.sql`AND (created_at < ${from.at} OR (created_at = ${from.at} AND id > ${from.id}))` : Prisma.empty}
         ORDER BY created_at DESC, id
         LIMIT ${limit}`;
      const fresh: Array<{ id: string; at: number }> = [];
      for (const line of lines) {
        if (met.has(line.request_id)) continue;
        met.add(line.request_id);
        fresh.push({ id: line.request_id, at: line.created_at.getTime() });
      }
      let passed = false;
      for (const request of await this.notShownBefore(accountId, fresh, before)) {
        if (boundary !== undefined && request.at < boundary) {
          passed = true;
          break;
        }
        taken.push(request);
        if (taken.length === wanted) boundary = request.at;
      }
      const last = lines.at(-1);
      if (passed || !last || lines.length < limit) break;
      if (boundary !== undefined && last.created_at.getTime() < boundary) break;
      from = { at: last.created_at, id: last.id };
      // a page of large searches has thousands of lines: read more at a time as the walk goes on
      limit = Math.min(limit * 2, WALK_LINES);
    }
    // every request of the boundary's moment: the page's query orders them by id (the database's collation)
    return taken.map((request) => request.id);
  }

  /** Of the requests met, those no earlier page had (in the order met). */
  private async notShownBefore(
    accountId: string,
    met: ReadonlyArray<{ id: string; at: number }>,
    before: RequestsBefore | undefined,
  ): Promise<ReadonlyArray<{ id: string; at: number }>> {
    if (!before || met.length === 0) return met;
    // compared by the database, in the collation the page's query orders ids by
    const shown = await this.prisma.$queryRaw<Array<{ request_id: string }>>`
      SELECT DISTINCT request_id FROM ledger_entries
       WHERE account_id = ${accountId} AND request_id = ANY(${met.map((r) => r.id)}::text[])
         AND (created_at > ${before.at} OR (created_at = ${before.at} AND request_id >= ${before.requestId}))`;
    const earlier = new Set(shown.map((r) => r.request_id));
    return met.filter((r) => !earlier.has(r.id));
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
