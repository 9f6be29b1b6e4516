import { Injectable } from '@nestjs/common';
import type { DashboardPage, EventDeliveriesView, WebhookReplayResponse } from '@jobs/contracts';
import { keysetPage, nextCursorOf } from '@jobs/cursors';
import { PrismaService, type Prisma } from '@jobs/db';
import type { Principal } from '../auth/api-key.js';
import { EventFeedUseCase } from '../events/event-feed.usecase.js';
import { ApiError } from '../http/api-error.js';

type DeliveryWithAttempts = Prisma.WebhookDeliveryGetPayload<{ include: { attempts: true } }>;

/** Events per page, newest first. */
export const DELIVERIES_PAGE_SIZE = 20;
/** Deliveries shown of each event: its latest (replays are free and unbounded). */
export const DELIVERIES_PER_EVENT = 10;
const CURSOR = /^[0-9]{1,19}$/;
/** The largest feed position (a PostgreSQL bigint). */
const POSITION_MAX = 2n ** 63n - 1n;

/** The feed position a deliveries cursor names; `invalid_request` for any text this endpoint never gave. */
export function positionOfCursor(cursor: string): bigint {
  const position = CURSOR.test(cursor) ? BigInt(cursor) : undefined;
  if (position === undefined || position > POSITION_MAX)
    throw new ApiError('invalid_request', 'cursor is not one this endpoint gave.', { param: 'cursor' });
  return position;
}

/**
 * Webhook deliveries in the dashboard: each event of the account's feed with its deliveries (the
 * original and any replays) and every attempt, read from the dispatcher's tables (which only the
 * dispatcher writes); a replay goes through the same use case as POST /v1/webhooks/replay.
 */
@Injectable()
export class DashboardDeliveriesUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly feed: EventFeedUseCase,
  ) {}

  /**
   * `cursor`: the feed position to continue below (opaque to the page). Only the session key's
   * mode's events (a dashboard session is opened with a live key), like GET /v1/events.
   */
  async page(
    principal: Pick<Principal, 'accountId' | 'mode'>,
    cursor: string | undefined,
  ): Promise<DashboardPage<EventDeliveriesView>> {
    const below = cursor === undefined ? undefined : positionOfCursor(cursor);
    const events = await this.prisma.webhookEvent.findMany({
      where: {
        accountId: principal.accountId,
        mode: principal.mode,
        ...(below !== undefined ? { position: { lt: below } } : {}),
      },
      orderBy: { position: 'desc' },
      take: DELIVERIES_PAGE_SIZE + 1,
      select: {
        position: true,
        eventId: true,
        type: true,
        watchId: true,
        webhookUrl: true,
        createdAt: true,
      },
    });
    const page = keysetPage(events, DELIVERIES_PAGE_SIZE);
    const { latest, totals } = await this.latestDeliveries(page.rows.map((event) => event.position));
    return {
      data: page.rows.map((event) => ({
        event_id: event.eventId,
        type: event.type,
        watch_id: event.watchId,
        webhook_url: event.webhookUrl,
        created_at: event.createdAt.toISOString(),
        deliveries_total: totals.get(event.position) ?? 0,
        deliveries: (latest.get(event.position) ?? []).map((delivery) => ({
          id: delivery.id,
          kind: delivery.kind,
          url: delivery.url,
          status: delivery.status,
          next_attempt_at: delivery.status === 'pending' ? (delivery.dueAt?.toISOString() ?? null) : null,
          created_at: delivery.createdAt.toISOString(),
          attempts: delivery.attempts.map((attempt) => ({
            number: attempt.number,
            outcome: attempt.outcome,
            status_code: attempt.statusCode,
            error: attempt.error,
            started_at: attempt.startedAt.toISOString(),
            duration_ms: attempt.durationMs,
          })),
        })),
      })),
      next_cursor: nextCursorOf(page, (last) => String(last.position)),
    };
  }

  /**
   * Of each event, its latest deliveries (oldest of them first) with their attempts, and how many
   * it has: an event replayed thousands of times reads and shows its latest few, each by the
   * deliveries' event index.
   */
  private async latestDeliveries(
    positions: readonly bigint[],
  ): Promise<{ latest: Map<bigint, DeliveryWithAttempts[]>; totals: Map<bigint, number> }> {
    if (positions.length === 0) return { latest: new Map(), totals: new Map() };
    const [chosen, counts] = await Promise.all([
      this.prisma.$queryRaw<Array<{ id: string }>>`
        SELECT d.id FROM unnest(${[...positions]}::bigint[]) AS e(position)
        JOIN LATERAL (
          SELECT id FROM webhook_deliveries WHERE event_position = e.position
          ORDER BY created_at DESC, id DESC LIMIT ${DELIVERIES_PER_EVENT}
        ) d ON true`,
      this.prisma.$queryRaw<Array<{ event_position: bigint; n: number }>>`
        SELECT event_position, count(*)::int AS n FROM webhook_deliveries
        WHERE event_position = ANY(${[...positions]}::bigint[]) GROUP BY event_position`,
    ]);
    const deliveries = await this.prisma.webhookDelivery.findMany({
      where: { id: { in: chosen.map((row) => row.id) } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { attempts: { orderBy: { number: 'asc' } } },
    });
    const latest = new Map<bigint, DeliveryWithAttempts[]>();
    for (const delivery of deliveries) {
      const of = latest.get(delivery.eventPosition);
      if (of) of.push(delivery);
      else latest.set(delivery.eventPosition, [delivery]);
    }
    return { latest, totals: new Map(counts.map((row) => [row.event_position, row.n])) };
  }

  replay(principal: Principal, eventId: string, requestId: string): Promise<WebhookReplayResponse> {
    return this.feed.replay(principal, eventId, requestId);
  }
}
