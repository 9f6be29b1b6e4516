import { Inject, Injectable } from '@nestjs/common';
import { EventSchema, tolerantReaderOf, type DispatcherQueryRequested, type EventListResponse } from '@jobs/contracts';
import { CursorCodec } from '@jobs/cursors';
import { PrismaService } from '@jobs/db';
import { nextCursor, positionAfter, type FeedOwner } from '../events/feed-page.js';
import { QueryFailure } from '@jobs/nest-kafka';

export const CURSOR_CODEC = Symbol('CURSOR_CODEC');

/**
 * A stored event as the feed reads it: the bytes every delivery sent, which may hold a field a
 * newer producer added (stored as it came, by the tolerant reader of `event.emitted`). A strict
 * parse would refuse that page for good, and every page after it behind the same cursor.
 */
const StoredEventSchema = tolerantReaderOf(EventSchema);

type EventsListQuery = Extract<DispatcherQueryRequested.DispatcherQuery, { kind: 'events.list' }>;

/**
 * GET /events: the account's feed of the key's mode, oldest first (feed position), `limit` per
 * page after `since`, a cursor of another mode's feed refused (`feedScope`).
 */
@Injectable()
export class ListEventsUseCase {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
  ) {}

  async execute(owner: FeedOwner, query: EventsListQuery): Promise<EventListResponse> {
    const { accountId, mode } = owner;
    const after = positionAfter(this.cursors, owner, query.since);
    if (after === null)
      throw new QueryFailure(
        'invalid_request',
        `since: this cursor was not issued by GET /events for this account and a ${mode} key.`,
        { param: 'since' },
      );
    const rows = await this.prisma.webhookEvent.findMany({
      where: { accountId, mode, position: { gt: after } },
      orderBy: { position: 'asc' },
      take: query.limit,
      select: { position: true, body: true },
    });
    return {
      data: rows.map((row) => StoredEventSchema.parse(JSON.parse(row.body))),
      next_cursor: nextCursor(this.cursors, owner, rows.at(-1)?.position ?? null),
    };
  }
}
