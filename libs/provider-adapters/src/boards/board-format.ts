import { decodeHTML } from 'entities';
import { boardListingPrefix, type BoardAts, type NormalizedProviderRecord } from '@jobs/contracts';
import { toIsoUtc } from '../normalize/fields.js';
import { htmlToText } from '../normalize/text.js';

/** Who a board belongs to (its registration) and when it was read. */
export interface BoardContext {
  ats: BoardAts;
  board: string;
  company: { name: string; domain: string };
  /** when the crawler read the board (ISO) */
  seenAt: string;
}

/** The openings a board lists, and how many of its items could not be read (skipped, never guessed). */
export interface BoardJobs {
  records: NormalizedProviderRecord[];
  skipped: number;
  /**
   * the listing ids of the skipped items that carry an id of the ATS's own: openings the board
   * still lists though their item could not be read, so none of them is absent
   */
  skippedIds: string[];
}

/** An ATS id as boards write them: a positive integer or a short token (no separators, no spaces). */
const ATS_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/**
 * A board's items read one by one: each becomes a record, is left out (`'not_listed'`: on the
 * board's answer but not shown as an opening), or is skipped, its listing id kept when the item
 * names one, so a read that skipped it still knows the opening is there.
 */
export function readBoardItems(
  items: readonly unknown[],
  context: BoardContext,
  read: (item: unknown) => NormalizedProviderRecord | 'not_listed' | null,
): BoardJobs {
  const jobs: BoardJobs = { records: [], skipped: 0, skippedIds: [] };
  for (const item of items) {
    const record = read(item);
    if (record === 'not_listed') continue;
    if (record) {
      jobs.records.push(record);
      continue;
    }
    jobs.skipped += 1;
    const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : undefined;
    if ((typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))) && ATS_ID.test(String(id)))
      jobs.skippedIds.push(boardJobId(context, id));
  }
  return jobs;
}

/** One ATS's public board API: where a board is, and how its answer becomes records. */
export interface BoardFormat {
  /** the board's URL under `baseUrl` (the ATS's host, or a stand-in) */
  url(baseUrl: string, board: string): URL;
  /** the answer's records; throws `BoardFormatError` when the answer is not a board of this ATS */
  parse(body: unknown, context: BoardContext): BoardJobs;
}

/** The answer is not a board of this ATS (an HTML error page, another API's JSON, garbage). */
export class BoardFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BoardFormatError';
  }
}

/** The record's id: the board's prefix and the ATS's own id, so the store tells each board's listings apart. */
export function boardJobId(context: BoardContext, id: string | number): string {
  return `${boardListingPrefix(context.ats, context.board)}${id}`;
}

/**
 * HTML as plain text; entity-escaped HTML (Greenhouse's `content`: `&lt;p&gt;…`) is unescaped
 * first. Entities of the whole HTML 5 set are decoded by `entities`, the parser's library.
 */
export function boardHtmlToText(html: string | null | undefined): string | null {
  if (!html) return null;
  return htmlToText(/&lt;\/?[a-z]/i.test(html) ? decodeHTML(html) : html);
}

/**
 * The dates a board's items may state. Anything outside is a wrong unit or garbage, not a date: epoch
 * seconds read as milliseconds land in January 1970, microseconds tens of thousands of years ahead
 * (past 8.64e15 ms a Date cannot even be written out).
 */
const EARLIEST_BOARD_DATE = Date.UTC(1990, 0, 1);
const LATEST_BOARD_DATE = Date.UTC(2100, 0, 1);

const plausibleDate = (ms: number) => ms >= EARLIEST_BOARD_DATE && ms < LATEST_BOARD_DATE;

/**
 * An item's date (ISO string or epoch ms) as ISO UTC, or null when it is not a plausible date: one
 * bad date leaves its field unknown, never its item skipped nor its board unread.
 */
export function boardDate(input: string | number | null | undefined): string | null {
  // checked before the number becomes a Date: one out of Date's range throws when written out
  if (typeof input === 'number' && !plausibleDate(input)) return null;
  const iso = toIsoUtc(input);
  return iso !== null && plausibleDate(Date.parse(iso)) ? iso : null;
}

/** The company a registration names, as every record of its board carries it. */
export function companyOf(context: BoardContext): NormalizedProviderRecord['company'] {
  return { name: context.company.name, domain: context.company.domain };
}
