import { Inject, Injectable } from '@nestjs/common';
import { JobSchema, type AsyncSearch, type OrchestratorQueryRequested } from '@jobs/contracts';
import { keysetPage, nextCursorOf, type CursorCodec } from '@jobs/cursors';
import { PrismaService } from '@jobs/db';
import { z } from 'zod';
import { QueryFailure } from '@jobs/nest-kafka';
import { asyncCursorScope, asyncSearchView, READABLE, type AsyncPagePosition } from './async-search.view.js';

type Message = OrchestratorQueryRequested.Value;
type GetQuery = Extract<Message['query'], { kind: 'async.get' }>;

export const ASYNC_CURSOR_CODEC = Symbol('ASYNC_CURSOR_CODEC');
const PositionSchema = z.strictObject({ after: z.number().int().min(0) });

/**
 * GET /searches/{id}: the search as it stands, and once completed or partial one page of its
 * collected jobs in collection order (`next_cursor` signed and bound to the account and the
 * search: no gap, no repeat). Another account's search, and a search of the other key mode
 * (a live search to a test key, a test search to a live key), is not found. Free.
 */
@Injectable()
export class ReadAsyncSearchUseCase {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(ASYNC_CURSOR_CODEC) private readonly cursors: CursorCodec,
  ) {}

  async execute(message: Message, query: GetQuery): Promise<AsyncSearch> {
    const row = await this.prisma.asyncSearch.findUnique({ where: { id: query.search_id } });
    if (!row || row.accountId !== message.account_id || row.mode !== message.mode)
      throw new QueryFailure('not_found', `No async search ${query.search_id}.`);
    if (!(READABLE as readonly string[]).includes(row.status)) return asyncSearchView(row);
    const scope = asyncCursorScope(row.accountId, row.id);
    let after = 0;
    if (query.read.cursor !== undefined) {
      const position = this.cursors.decode(scope, query.read.cursor, PositionSchema);
      if (!position)
        throw new QueryFailure('invalid_request', 'cursor: not a cursor of this search.', { param: 'cursor' });
      after = position.after;
    }
    const rows = await this.prisma.asyncSearchResult.findMany({
      where: { searchId: row.id, state: 'collected', seq: { gt: after } },
      orderBy: { seq: 'asc' },
      take: query.read.limit + 1,
      select: { seq: true, job: true },
    });
    const page = keysetPage(rows, query.read.limit);
    const nextCursor = nextCursorOf(page, (last) =>
      this.cursors.encode(scope, { after: last.seq } satisfies AsyncPagePosition),
    );
    return asyncSearchView(row, { data: page.rows.map((r) => JobSchema.parse(r.job)), nextCursor });
  }
}
