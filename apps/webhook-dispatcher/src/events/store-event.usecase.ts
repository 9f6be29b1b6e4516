import { Injectable } from '@nestjs/common';
import type { EventEmitted } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { NonRetriableError } from '@jobs/kafka';
import { newId } from '@jobs/observability';

export interface StoredEvent {
  /** false when the event was already stored (a redelivery or a re-emission): nothing new happens */
  stored: boolean;
  /** a delivery was created (the event has a webhook_url) */
  delivery: boolean;
}

/** One emitted event to store, with the trace context its delivery's attempts continue. */
export interface IncomingEvent {
  message: EventEmitted.Value;
  /** W3C traceparent of the span that received it; null when there is none. */
  traceParent: string | null;
  /** The request id the message carried; null when none. */
  requestId: string | null;
}

/**
 * Stores emitted events in their accounts' feeds, once per (account, event id), with the exact
 * JSON bytes every delivery and replay will send, and (when an event has a webhook_url) its first
 * delivery, due now; all in one transaction, so a crash leaves either both or neither and a
 * redelivered message finds the event and does nothing. A batch costs three statements whatever
 * its size (set-based over arrays); events keep their order in the feed.
 */
@Injectable()
export class StoreEventUseCase {
  constructor(private readonly prisma: PrismaService) {}

  async execute(message: EventEmitted.Value): Promise<StoredEvent> {
    const [outcome] = await this.storeMany([{ message, traceParent: null, requestId: null }]);
    if (outcome instanceof Error) throw outcome;
    return outcome!;
  }

  /**
   * One outcome per event, in order: what happened, or a NonRetriableError for an event of an
   * unknown account (that event alone). A database failure throws (nothing of the batch is stored).
   */
  async storeMany(events: readonly IncomingEvent[]): Promise<Array<StoredEvent | Error>> {
    if (events.length === 0) return [];
    const accountIds = [...new Set(events.map((e) => e.message.account_id))].sort();
    return this.prisma.$transaction(async (tx) => {
      const known = new Set(
        (await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM accounts WHERE id = ANY(${accountIds}::text[])`).map(
          (row) => row.id,
        ),
      );
      // The first of each (account, event id) is stored; a repeat within the batch is "already stored".
      const firsts = new Map<string, number>();
      events.forEach((e, i) => {
        const key = `${e.message.account_id}\u0000${e.message.event.id}`;
        if (known.has(e.message.account_id) && !firsts.has(key)) firsts.set(key, i);
      });
      const rows = [...firsts.values()].map((i) => events[i]!);
      const inserted = new Set<string>();
      if (rows.length > 0) {
        // One account's feed positions are taken one transaction at a time, so they grow in commit
        // order and a reader paging with `since` never passes an event that commits later. Locks are
        // taken in one order (sorted) so two replicas' batches cannot deadlock.
        const lockKeys = [...new Set(rows.map((e) => `webhook-feed:${e.message.account_id}`))].sort();
        await tx.$queryRaw`
          SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0)))::int AS locked
          FROM (SELECT k FROM unnest(${lockKeys}::text[]) AS k ORDER BY k OFFSET 0) AS keys`;
        // Positions follow the batch's order (ORDER BY ord), which is the order the messages came in.
        // The first deliveries are written by the same statement, for the events it inserted.
        const now = new Date();
        const stored = await tx.$queryRaw<Array<{ account_id: string; event_id: string }>>`
          WITH input AS (
            SELECT * FROM unnest(
              ${rows.map((e) => e.message.account_id)}::text[], ${rows.map((e) => e.message.event.id)}::text[],
              ${rows.map((e) => e.message.event.type)}::text[], ${rows.map((e) => e.message.event.watch_id)}::text[],
              ${rows.map((e) => JSON.stringify(e.message.event))}::text[],
                ${rows.map((e) => e.message.webhook_url)}::text[],
              ${rows.map((e) => e.message.event.created_at)}::text[], ${rows.map(() => newId('dlv'))}::text[],
              ${rows.map((e) => e.traceParent)}::text[], ${rows.map((e) => e.requestId)}::text[],
              ${rows.map((e) => e.message.mode)}::text[]
            ) WITH ORDINALITY AS i(account_id, event_id, type, watch_id, body, webhook_url, created_at, delivery_id,
              trace_parent, request_id, mode, ord)
          ), events AS (
            INSERT INTO webhook_events (account_id, event_id, type, watch_id, body, webhook_url, created_at, mode)
            SELECT account_id, event_id, type, watch_id, body, webhook_url, created_at::timestamptz, mode::key_mode FROM
              input ORDER BY ord
            ON CONFLICT (account_id, event_id) DO NOTHING
            RETURNING position, account_id, event_id
          ), deliveries AS (
            INSERT INTO webhook_deliveries (id, event_position, account_id, url, kind, status, due_at, trace_parent,
              request_id, created_at, updated_at)
            SELECT i.delivery_id, e.position, i.account_id, i.webhook_url, 'original', 'pending', ${now},
              i.trace_parent, i.request_id, ${now}, ${now}
            FROM events e JOIN input i ON i.account_id = e.account_id AND i.event_id = e.event_id
            WHERE i.webhook_url IS NOT NULL
          )
          SELECT account_id, event_id FROM events`;
        for (const row of stored) inserted.add(`${row.account_id}\u0000${row.event_id}`);
      }
      return events.map((e, i): StoredEvent | Error => {
        if (!known.has(e.message.account_id)) return new NonRetriableError(`unknown account ${e.message.account_id}`);
        const key = `${e.message.account_id}\u0000${e.message.event.id}`;
        const stored = firsts.get(key) === i && inserted.has(key);
        return { stored, delivery: stored && e.message.webhook_url !== null };
      });
    });
  }
}
