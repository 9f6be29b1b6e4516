/**
 * Admin API: the own crawler's job boards (operator.md, "The own crawler's job boards").
 *
 * A board is one employer's list on one applicant tracking system (ATS), read by the own crawler
 * on every refresh pass. Choices where the spec is silent (docs/decisions/0043):
 * - a board name is what the ATS puts in its URL: letters, digits, `.`, `_`, `-`, at most 100;
 * - `company_name` defaults to the company domain's first label, capitalised (`acme.com` → `Acme`);
 * - `base_url` defaults to the ATS's public API host, and is kept without a trailing slash.
 */
import { z } from 'zod';
import { DateTimeSchema, DomainSchema, NonNegativeIntSchema, UrlSchema } from '../public/common.schema.js';

export const BoardAtsSchema = z.enum(['greenhouse', 'lever', 'ashby']);
export type BoardAts = z.infer<typeof BoardAtsSchema>;

/** Where each ATS serves its public board API when a registration names no `base_url`. */
export const BOARD_ATS_DEFAULT_BASE_URL = {
  greenhouse: 'https://boards-api.greenhouse.io',
  lever: 'https://api.lever.co',
  ashby: 'https://api.ashbyhq.com',
} as const satisfies Record<BoardAts, string>;

/** A board's name as its ATS writes it in the URL (no `:` or `/`: it prefixes the board's listing ids). */
export const BoardNameSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-" only');

export const AdminCrawlerBoardParamsSchema = z.strictObject({ ats: BoardAtsSchema, board: BoardNameSchema });
export type AdminCrawlerBoardParams = z.infer<typeof AdminCrawlerBoardParamsSchema>;

export const AdminCrawlerBoardPutRequestSchema = z.strictObject({
  company_domain: DomainSchema,
  company_name: z.string().trim().min(1).max(200).optional(),
  base_url: UrlSchema.max(2048).optional(),
});
export type AdminCrawlerBoardPutRequest = z.infer<typeof AdminCrawlerBoardPutRequestSchema>;

/** One entry of `CRAWLER_BOARDS_FILE`: the path's `ats` and `board` beside the PUT body. */
export const CrawlerBoardsFileSchema = z.array(
  AdminCrawlerBoardPutRequestSchema.extend({ ats: BoardAtsSchema, board: BoardNameSchema }),
);
export type CrawlerBoardsFile = z.infer<typeof CrawlerBoardsFileSchema>;

export const AdminCrawlerBoardSchema = z.strictObject({
  ats: BoardAtsSchema,
  board: BoardNameSchema,
  company_domain: DomainSchema,
  company_name: z.string().min(1),
  base_url: UrlSchema,
});
export type AdminCrawlerBoard = z.infer<typeof AdminCrawlerBoardSchema>;

export const AdminCrawlerBoardStatusSchema = AdminCrawlerBoardSchema.extend({
  /** when the crawler last read the board whole (an unchanged answer counts), or null */
  last_read_at: DateTimeSchema.nullable(),
  /** open jobs the board's listings keep open, as of its last read */
  open_jobs: NonNegativeIntSchema,
  /** why the last read failed (status, timeout, unreadable answer, breaker open), or null after a good read */
  last_error: z.string().nullable(),
});
export type AdminCrawlerBoardStatus = z.infer<typeof AdminCrawlerBoardStatusSchema>;

export const AdminCrawlerBoardListSchema = z.strictObject({ data: z.array(AdminCrawlerBoardStatusSchema) });

/** The company name a registration without one gets: the domain's first label, capitalised. */
export function defaultCompanyName(domain: string): string {
  const label = domain.split('.')[0] ?? domain;
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** The board's listing ids start with this (`greenhouse:acme:`): the store tells a board's listings apart by it. */
export function boardListingPrefix(ats: BoardAts, board: string): string {
  return `${ats}:${board}:`;
}
