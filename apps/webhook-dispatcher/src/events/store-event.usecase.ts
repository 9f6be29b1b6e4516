import { Injectable } from '@nestjs/common';
import type { EventEmitted } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { NonRetriableError } from '@jobs/kafka';
import { annotateStage, newId } from '@jobs/observability';

export interface StoredEvent {
  /** false when the event was already stored (a redelivery or a re-emission): nothing new happens */
  stored: boolean;
  /** a delivery was created (the event has a webhook_url) */
  delivery: boolean;
}

/**
 * Stores an emitted event in the account's feed, once per (account, event id), with the exact
 * JSON bytes every delivery and replay will send, and (when it has a webhook_url) its first
 * delivery, due now; both in one transaction, so a crash leaves either both or neither and a
 * redelivered message finds the event and does nothing.
 */
@Injectable()
export class StoreEventUseCase {
  constructor(private readonly prisma: PrismaService) {}

  async execute(message: EventEmitted.Value): Promise<StoredEvent> {
    const { account_id: accountId, event, webhook_url: webhookUrl } = message;
    const body = JSON.stringify(event);
    annotateStage({ 'account.id': accountId, 'event.id': event.id, 'event.type': event.type, 'event.has_webhook': webhookUrl !== null });
    return this.prisma.$transaction(async (tx) => {
      if (!(await tx.account.count({ where: { id: accountId } }))) throw new NonRetriableError(`unknown account ${accountId}`);
      // One account's feed positions are taken one transaction at a time, so they grow in commit
      // order and a reader paging with `since` never passes an event that commits later.
      await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtextextended(${`webhook-feed:${accountId}`}, 0))) AS lock`;
      const rows = await tx.$queryRaw<Array<{ position: bigint }>>`
        INSERT INTO webhook_events (account_id, event_id, type, watch_id, body, webhook_url, created_at)
        VALUES (${accountId}, ${event.id}, ${event.type}, ${event.watch_id}, ${body}, ${webhookUrl}, ${new Date(event.created_at)})
        ON CONFLICT (account_id, event_id) DO NOTHING
        RETURNING position`;
      const position = rows[0]?.position;
      if (position === undefined) return { stored: false, delivery: false };
      if (webhookUrl === null) return { stored: true, delivery: false };
      await tx.webhookDelivery.create({
        data: { id: newId('dlv'), eventPosition: position, accountId, url: webhookUrl, kind: 'original', status: 'pending', dueAt: new Date() },
      });
      return { stored: true, delivery: true };
    });
  }
}
