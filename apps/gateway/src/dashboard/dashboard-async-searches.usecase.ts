import { Injectable } from '@nestjs/common';
import type { AsyncSearchCreateRequest, AsyncSearchStatus, AsyncSearchView, DashboardPage } from '@jobs/contracts';
import { keysetPage, NEWEST_FIRST, newestFirstAfter, nextCursorOf } from '@jobs/cursors';
import { PrismaService } from '@jobs/db';
import type { Principal } from '../auth/api-key.js';
import { ApiError } from '../http/api-error.js';

/** Searches per page, newest first. */
export const ASYNC_SEARCHES_PAGE_SIZE = 20;
/** `<created at, ms>.<search id>` of the last search served (opaque to the page). */
const CURSOR = /^(\d{1,15})\.(srch_[A-Za-z0-9_-]{1,64})$/;

/**
 * The account's async searches in the dashboard: a read of the orchestrator's table (which only
 * the orchestrator writes), as the ledger and the deliveries are reads of their owners' tables.
 * The public API has no list of searches; starting one and reading its jobs go through the same
 * use case as POST and GET /v1/searches.
 */
@Injectable()
export class DashboardAsyncSearchesUseCase {
  constructor(private readonly prisma: PrismaService) {}

  /** Only the session key's mode's searches (a dashboard session is opened with a live key). */
  async page(
    principal: Pick<Principal, 'accountId' | 'mode'>,
    cursor: string | undefined,
  ): Promise<DashboardPage<AsyncSearchView>> {
    const after = cursor === undefined ? undefined : CURSOR.exec(cursor);
    if (after === null)
      throw new ApiError('invalid_request', 'cursor is not one this endpoint gave.', { param: 'cursor' });
    const rows = await this.prisma.asyncSearch.findMany({
      where: {
        accountId: principal.accountId,
        mode: principal.mode,
        ...newestFirstAfter(after ? { at: new Date(Number(after[1])), id: after[2]! } : undefined),
      },
      orderBy: NEWEST_FIRST,
      take: ASYNC_SEARCHES_PAGE_SIZE + 1,
      select: {
        id: true,
        status: true,
        jobsFound: true,
        creditsCharged: true,
        request: true,
        webhookUrl: true,
        createdAt: true,
        completedAt: true,
      },
    });
    const page = keysetPage(rows, ASYNC_SEARCHES_PAGE_SIZE);
    return {
      data: page.rows.map((row) => {
        const request = row.request as Pick<AsyncSearchCreateRequest, 'limit' | 'waterfall'>;
        return {
          id: row.id,
          status: row.status as AsyncSearchStatus,
          jobs_found: row.jobsFound,
          credits_charged: row.creditsCharged,
          limit: request.limit,
          max_credits: request.waterfall?.max_credits ?? null,
          webhook_url: row.webhookUrl,
          created_at: row.createdAt.toISOString(),
          completed_at: row.completedAt?.toISOString() ?? null,
        };
      }),
      next_cursor: nextCursorOf(page, (last) => `${last.createdAt.getTime()}.${last.id}`),
    };
  }
}
