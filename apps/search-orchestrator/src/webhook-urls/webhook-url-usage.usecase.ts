import { Injectable } from '@nestjs/common';
import { WEBHOOK_ENDPOINT_USERS_LISTED, type OrchestratorQueryRequested } from '@jobs/contracts';
import { keysetPage } from '@jobs/cursors';
import { Prisma, PrismaService } from '@jobs/db';

type Message = OrchestratorQueryRequested.Value;
/** A constant in the statement's text: an array slice bound is not a parameter PostgreSQL types as integer. */
const LISTED = Prisma.raw(String(WEBHOOK_ENDPOINT_USERS_LISTED));
type Query = Extract<Message['query'], { kind: 'webhook_urls.list' }>;

interface UsageRow {
  url: string;
  watches: bigint;
  watch_ids: string[] | null;
  async_searches: bigint;
  async_search_ids: string[] | null;
}

/**
 * The `webhook_url`s an account's watches and async searches of one key mode deliver to, in the
 * order of their SHA-256 (hex, `COLLATE "C"`: the gateway merges them with the secrets' URLs in
 * the same order, and a hash fits in a cursor where a 2048-character URL does not), with what
 * uses each. One statement over the account's own rows (both tables are read through their
 * `account_id` indexes); a watch that was deleted no longer counts, an async search always does
 * (its `search.completed` went there).
 */
@Injectable()
export class WebhookUrlUsageUseCase {
  constructor(private readonly prisma: PrismaService) {}

  async list(
    message: Message,
    query: Query,
  ): Promise<{ urls: OrchestratorQueryRequested.WebhookUrlUsage[]; more: boolean }> {
    const after = query.after ?? '';
    // the hash of each URL once, then the page by it
    const rows = await this.prisma.$queryRaw<UsageRow[]>`
      WITH uses AS (
        SELECT w.webhook_url AS url, 'watch' AS kind, w.id, w.created_at FROM watches w
        WHERE w.account_id = ${message.account_id} AND w.mode = ${message.mode}::key_mode
        UNION ALL
        SELECT s.webhook_url, 'search', s.id, s.created_at FROM async_searches s
        WHERE s.account_id = ${message.account_id} AND s.mode = ${message.mode}::key_mode AND s.webhook_url IS NOT NULL
      ), hashed AS (
        SELECT DISTINCT url, encode(sha256(convert_to(url, 'UTF8')), 'hex') COLLATE "C" AS h FROM uses
      ), page AS (
        SELECT url, h FROM hashed WHERE h > ${after} ORDER BY h LIMIT ${query.limit + 1}
      )
      SELECT u.url,
        count(*) FILTER (WHERE u.kind = 'watch') AS watches,
        (array_agg(u.id ORDER BY u.created_at DESC, u.id DESC) FILTER (WHERE u.kind = 'watch'))[1:${LISTED}] AS
          watch_ids,
        count(*) FILTER (WHERE u.kind = 'search') AS async_searches,
        (array_agg(u.id ORDER BY u.created_at DESC, u.id DESC) FILTER (WHERE u.kind = 'search'))[1:${LISTED}] AS
          async_search_ids
      FROM uses u JOIN page p ON p.url = u.url
      GROUP BY u.url, p.h
      ORDER BY p.h`;
    const page = keysetPage(rows, query.limit);
    return {
      urls: page.rows.map((row) => ({
        url: row.url,
        used_by: {
          watches: Number(row.watches),
          watch_ids: row.watch_ids ?? [],
          async_searches: Number(row.async_searches),
          async_search_ids: row.async_search_ids ?? [],
        },
      })),
      more: page.more,
    };
  }
}
