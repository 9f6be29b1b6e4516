import { Injectable } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { afterFailure } from './retry-schedule.js';

/** One attempt a worker now owns: the delivery, its event's stored bytes and its attempt number. */
export interface ClaimedAttempt {
  deliveryId: string;
  accountId: string;
  url: string;
  kind: string;
  eventId: string;
  body: string;
  attempt: number;
  retrySlot: number;
  firstFailedAt: Date | null;
}

export type AttemptOutcome =
  | { kind: 'succeeded'; statusCode: number }
  | { kind: 'failed'; statusCode: number | null; error: string | null }
  | { kind: 'refused'; error: string };

interface ClaimRow {
  id: string;
  account_id: string;
  url: string;
  kind: string;
  attempt_count: number;
  retry_slot: number;
  first_failed_at: Date | null;
  event_id: string;
  body: string;
}

/** How long a claimed attempt is owned: longer than the 10 s deadline, so only a dead worker loses it. */
export const LEASE_MS = 30_000;

/**
 * Deliveries held durably in PostgreSQL. A due delivery is claimed with FOR UPDATE SKIP LOCKED
 * (replicas never take the same one) and its due time moves to the end of a lease: if the worker
 * dies during the attempt, the delivery is due again when the lease ends and the unfinished
 * attempt is recorded as `interrupted`. A finish applies only while the attempt is still the
 * delivery's latest, so a late finish after a lease was lost changes nothing.
 */
@Injectable()
export class DeliveryStore {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Up to `limit` due deliveries, oldest due first, none to an endpoint in `skipUrls`, at most
   * `perUrl` per endpoint; each gets its attempt row (`in_flight`) in the same transaction.
   */
  async claimDue(now: Date, limit: number, skipUrls: readonly string[], perUrl: (url: string) => number): Promise<ClaimedAttempt[]> {
    if (limit <= 0) return [];
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<ClaimRow[]>`
        SELECT d.id, d.account_id, d.url, d.kind, d.attempt_count, d.retry_slot, d.first_failed_at, e.event_id, e.body
        FROM webhook_deliveries d JOIN webhook_events e ON e.position = d.event_position
        WHERE d.status = 'pending' AND d.due_at <= ${now} AND NOT (d.url = ANY(${[...skipUrls]}::text[]))
        ORDER BY d.due_at
        LIMIT ${limit * 4}
        FOR UPDATE OF d SKIP LOCKED`;
      const taken = new Map<string, number>();
      const chosen = rows.filter((row) => {
        const count = taken.get(row.url) ?? 0;
        if (count >= perUrl(row.url)) return false;
        taken.set(row.url, count + 1);
        return true;
      }).slice(0, limit);
      if (chosen.length === 0) return [];
      const ids = chosen.map((row) => row.id);
      await tx.$executeRaw`
        UPDATE webhook_attempts SET outcome = 'interrupted', finished_at = ${now}, error = 'the dispatcher stopped during this attempt'
        WHERE delivery_id = ANY(${ids}::text[]) AND outcome = 'in_flight'`;
      await tx.$executeRaw`
        UPDATE webhook_deliveries SET due_at = ${new Date(now.getTime() + LEASE_MS)}, attempt_count = attempt_count + 1, updated_at = ${now}
        WHERE id = ANY(${ids}::text[])`;
      await tx.webhookAttempt.createMany({
        data: chosen.map((row) => ({ deliveryId: row.id, number: row.attempt_count + 1, startedAt: now, outcome: 'in_flight' })),
      });
      return chosen.map((row) => ({
        deliveryId: row.id,
        accountId: row.account_id,
        url: row.url,
        kind: row.kind,
        eventId: row.event_id,
        body: row.body,
        attempt: row.attempt_count + 1,
        retrySlot: row.retry_slot,
        firstFailedAt: row.first_failed_at,
      }));
    });
  }

  /** Records the attempt and the delivery's next state: done, retry at its slot, or given up. */
  async finish(claim: ClaimedAttempt, outcome: AttemptOutcome, startedAt: Date, finishedAt: Date, scale: number): Promise<{ status: string; dueAt: Date | null }> {
    let next: { status: string; dueAt: Date | null; retrySlot: number; firstFailedAt: Date | null };
    if (outcome.kind === 'succeeded') next = { status: 'succeeded', dueAt: null, retrySlot: claim.retrySlot, firstFailedAt: claim.firstFailedAt };
    else if (outcome.kind === 'refused') next = { status: 'refused', dueAt: null, retrySlot: claim.retrySlot, firstFailedAt: claim.firstFailedAt ?? finishedAt };
    else {
      const after = afterFailure({ retrySlot: claim.retrySlot, firstFailedAt: claim.firstFailedAt }, finishedAt, scale);
      next =
        after.kind === 'retry'
          ? { status: 'pending', dueAt: after.dueAt, retrySlot: after.retrySlot, firstFailedAt: after.firstFailedAt }
          : { status: 'failed', dueAt: null, retrySlot: after.retrySlot, firstFailedAt: after.firstFailedAt };
    }
    await this.prisma.$transaction(async (tx) => {
      await tx.webhookAttempt.updateMany({
        where: { deliveryId: claim.deliveryId, number: claim.attempt, outcome: 'in_flight' },
        data: {
          outcome: outcome.kind,
          finishedAt,
          durationMs: Math.max(0, finishedAt.getTime() - startedAt.getTime()),
          statusCode: outcome.kind === 'refused' ? null : outcome.statusCode,
          error: outcome.kind === 'succeeded' ? null : outcome.error,
        },
      });
      await tx.webhookDelivery.updateMany({
        where: { id: claim.deliveryId, attemptCount: claim.attempt, status: 'pending' },
        data: next,
      });
    });
    return { status: next.status, dueAt: next.dueAt };
  }

  /** The earliest due time of any pending delivery (for the worker's next wake-up). */
  async nextDueAt(): Promise<Date | null> {
    const row = await this.prisma.webhookDelivery.findFirst({ where: { status: 'pending' }, orderBy: { dueAt: 'asc' }, select: { dueAt: true } });
    return row?.dueAt ?? null;
  }
}
