import { decodeHTML } from 'entities';
import { boardListingPrefix, type BoardAts, type NormalizedProviderRecord } from '@jobs/contracts';
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

/** The company a registration names, as every record of its board carries it. */
export function companyOf(context: BoardContext): NormalizedProviderRecord['company'] {
  return { name: context.company.name, domain: context.company.domain };
}
