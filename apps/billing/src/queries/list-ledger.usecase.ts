import { Inject, Injectable } from '@nestjs/common';
import { ledgerEntryView, type BillingQueryRequested, type LedgerListResponse } from '@jobs/contracts';
import { CursorCodec, keysetPage, NEWEST_FIRST, newestFirstAfter, nextCursorOf } from '@jobs/cursors';
import { PrismaService } from '@jobs/db';
import { QueryFailure } from '@jobs/nest-kafka';
import { z } from 'zod';

export const CURSOR_CODEC = Symbol('CURSOR_CODEC');

type LedgerListQuery = Extract<BillingQueryRequested.Value['query'], { kind: 'ledger.list' }>;

/** created_at of the last entry served (ISO) and its id: the keyset of the next page. */
const LedgerPositionSchema = z.strictObject({ at: z.iso.datetime(), id: z.string().min(1).max(64) });
type LedgerPosition = z.infer<typeof LedgerPositionSchema>;

/** GET /billing/ledger: newest first, keyset-paged (stable while new entries arrive). */
@Injectable()
export class ListLedgerUseCase {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
  ) {}

  /** The scope names the account: another account's cursor is refused (400 invalid_request). */
  async execute(accountId: string, query: LedgerListQuery): Promise<LedgerListResponse> {
    const scope = `ledger:${accountId}:${query.job_id ?? '*'}`;
    let after: LedgerPosition | null = null;
    if (query.cursor) {
      after = this.cursors.decode(scope, query.cursor, LedgerPositionSchema);
      if (!after)
        throw new QueryFailure('invalid_request', 'This cursor does not belong to this listing.', { param: 'cursor' });
    }
    const rows = await this.prisma.ledgerEntry.findMany({
      where: {
        accountId,
        ...(query.job_id ? { jobId: query.job_id } : {}),
        ...newestFirstAfter(after && { at: new Date(after.at), id: after.id }),
      },
      orderBy: NEWEST_FIRST,
      take: query.limit + 1,
    });
    const page = keysetPage(rows, query.limit);
    return {
      data: page.rows.map(ledgerEntryView),
      next_cursor: nextCursorOf(page, (last) =>
        this.cursors.encode(scope, { at: last.createdAt.toISOString(), id: last.id } satisfies LedgerPosition),
      ),
    };
  }
}
