import { SearchMetadataSchema, type AsyncSearch, type AsyncSearchStatus, type Job } from '@jobs/contracts';
import type { Prisma } from '@jobs/db';

type SearchRow = Prisma.AsyncSearchGetPayload<object>;

/** Statuses whose reads carry result pages. */
export const READABLE: readonly AsyncSearchStatus[] = ['completed', 'partial'];

/** Signed-cursor scope of one search's result pages: bound to the account and the search. */
export const asyncCursorScope = (accountId: string, searchId: string): string => `async:${accountId}:${searchId}`;

/** Where the next result page starts: after this result row number. */
export interface AsyncPagePosition {
  after: number;
}

/** The public Async search object of a row and one page of its results. */
export function asyncSearchView(
  row: SearchRow,
  page: { data: Job[]; nextCursor: string | null } = { data: [], nextCursor: null },
): AsyncSearch {
  return {
    id: row.id,
    status: row.status as AsyncSearchStatus,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    completed_at: row.completedAt?.toISOString() ?? null,
    webhook_url: row.webhookUrl,
    jobs_found: row.jobsFound,
    data: page.data,
    next_cursor: page.nextCursor,
    metadata: row.metadata === null ? null : SearchMetadataSchema.parse(row.metadata),
  };
}

/** The answer to POST /searches: the search as accepted (queued, nothing collected yet). */
export function acceptedView(row: SearchRow): AsyncSearch {
  return {
    ...asyncSearchView(row),
    status: 'queued',
    completed_at: null,
    jobs_found: 0,
    metadata: null,
    updated_at: row.createdAt.toISOString(),
  };
}
