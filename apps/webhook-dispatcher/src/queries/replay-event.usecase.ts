import { Injectable } from '@nestjs/common';
import type { WebhookReplayResponse } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { context, propagation } from '@opentelemetry/api';
import { newId, requestContext } from '@jobs/observability';
import { QueryFailure } from '@jobs/nest-kafka';
import type { FeedOwner } from '../events/feed-page.js';

/**
 * POST /webhooks/replay: a new delivery of a stored event (same id, same body bytes, a fresh
 * signature at send time) to its original webhook_url, with its own attempts and retries; free.
 * Its replay id (a keyed request's, else the query id) marks it, so a redelivered request, or a
 * keyed retry of the HTTP request, makes no second replay. An event of the other key mode is not
 * found.
 */
@Injectable()
export class ReplayEventUseCase {
  constructor(private readonly prisma: PrismaService) {}

  async execute({ accountId, mode }: FeedOwner, replayId: string, eventId: string): Promise<WebhookReplayResponse> {
    const event = await this.prisma.webhookEvent.findUnique({
      where: { accountId_eventId: { accountId, eventId } },
      select: { position: true, webhookUrl: true, mode: true },
    });
    if (!event || event.mode !== mode) throw new QueryFailure('not_found', `No event ${eventId}.`);
    if (event.webhookUrl === null) {
      throw new QueryFailure(
        'invalid_request',
        `event_id: ${eventId} has no webhook endpoint (it is in the ` +
          `feed only, GET /v1/events); there is nothing to re-send.`,
        { param: 'event_id' },
      );
    }
    // The replay's attempts continue the replay request's trace.
    const carrier: Record<string, string> = {};
    propagation.inject(context.active(), carrier);
    await this.prisma.webhookDelivery.createMany({
      data: [
        {
          id: newId('dlv'),
          eventPosition: event.position,
          accountId,
          url: event.webhookUrl,
          kind: 'replay',
          replayQueryId: replayId,
          status: 'pending',
          dueAt: new Date(),
          traceParent: carrier['traceparent'] ?? null,
          requestId: requestContext.current()?.requestId ?? null,
        },
      ],
      skipDuplicates: true,
    });
    return { event_id: eventId, status: 'queued' };
  }
}
