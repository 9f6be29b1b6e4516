// Sync searches for the paging tests: one page, and every page following next_cursor.
import { JobSearchResponseSchema, type JobSearchResponse } from '@jobs/contracts';
import { api } from '@jobs/e2e-support';

/** One sync search page (200 expected). */
export async function searchPage(key: string, body: Record<string, unknown>): Promise<JobSearchResponse> {
  const res = await api('/v1/jobs/search', { key, body });
  if (res.status !== 200) throw new Error(`POST /v1/jobs/search answered ${res.status}: ${JSON.stringify(res.body)}`);
  return JobSearchResponseSchema.parse(res.body);
}

/** Every page of a search, following next_cursor with the same body; the last one ends with `next_cursor: null`. */
export async function allPages(
  key: string,
  body: Record<string, unknown>,
  maxPages: number,
): Promise<JobSearchResponse[]> {
  const pages: JobSearchResponse[] = [];
  let cursor: string | null = null;
  do {
    const page = await searchPage(key, cursor ? { ...body, cursor } : body);
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor && pages.length < maxPages);
  expect(cursor).toBeNull();
  return pages;
}

/** Titles compared without case, in one order. */
export const lower = (titles: readonly string[]) => titles.map((t) => t.toLowerCase()).sort();
