import { Injectable } from '@nestjs/common';
import {
  FiltersSchema,
  ProviderSlugSchema,
  tolerantReaderOf,
  WatchEventTypeSchema,
  WatchStatusSchema,
  WatchTypeSchema,
  type WatchStatus,
} from '@jobs/contracts';
import { keysetPage, NEWEST_FIRST, newestFirstAfter, type KeysetPage } from '@jobs/cursors';
import { PrismaService, type Prisma } from '@jobs/db';
import { z } from 'zod';
import type { WatchRecord } from './watch.js';

/**
 * Whose watches: an account's, in the mode of the key that asks (a test key never sees a live watch, nor the reverse).
 */
export interface WatchOwner {
  accountId: string;
  mode: WatchRecord['mode'];
}

type WatchRow = Prisma.WatchGetPayload<object>;

/**
 * What is read back from the table is checked like any other boundary, and read as a message is:
 * filters a later version stored are kept (a rollback still reads, lists and matches its watches).
 */
const StoredWatchSchema = z.object({
  type: WatchTypeSchema,
  filters: tolerantReaderOf(FiltersSchema).nullable(),
  events: z.array(WatchEventTypeSchema),
  status: WatchStatusSchema,
  providersEnabled: z.array(ProviderSlugSchema),
});

/** A row of the table as the domain's watch. */
export function toRecord(row: WatchRow): WatchRecord {
  const checked = StoredWatchSchema.parse({
    type: row.type,
    filters: row.filters,
    events: row.events,
    status: row.status,
    providersEnabled: row.providersEnabled,
  });
  return {
    id: row.id,
    accountId: row.accountId,
    type: checked.type,
    domain: row.domain,
    filters: checked.filters,
    webhookUrl: row.webhookUrl,
    events: checked.events,
    status: checked.status,
    mode: row.mode,
    providersEnabled: checked.providersEnabled,
    createdAt: row.createdAt,
    activeSince: row.activeSince,
  };
}

/** created_at (ISO) and id of the last watch served: the keyset of the next page */
export const WatchPositionSchema = z.strictObject({ at: z.iso.datetime(), id: z.string().min(1).max(64) });
export type WatchPosition = z.infer<typeof WatchPositionSchema>;

/** The orchestrator's watches table (PostgreSQL). */
@Injectable()
export class WatchStore {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Inserts the watch unless its id exists (a redelivered or retried create: read back whatever
   * the cap), then reads it back; active since its creation. A new watch beyond `cap` watches of
   * its owner is not inserted: `over_cap`. Creates of one owner take turns (an advisory lock on
   * the owner), so concurrent creates never pass the cap together.
   */
  async createOnce(
    watch: Omit<WatchRecord, 'createdAt' | 'activeSince'>,
    cap: number,
  ): Promise<WatchRecord | 'over_cap'> {
    const existing = await this.prisma.watch.findUnique({ where: { id: watch.id } });
    if (existing) return toRecord(existing);
    const created = await this.prisma.$transaction(async (tx) => {
      const owner = `watches:${watch.accountId}:${watch.mode}`;
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${owner}, 0))`;
      const held = await tx.watch.count({ where: { accountId: watch.accountId, mode: watch.mode } });
      if (held >= cap) return (await tx.watch.findUnique({ where: { id: watch.id } })) ?? 'over_cap';
      await tx.watch.createMany({
        data: [
          {
            id: watch.id,
            accountId: watch.accountId,
            type: watch.type,
            domain: watch.domain,
            filters: watch.filters ?? undefined,
            webhookUrl: watch.webhookUrl,
            events: [...watch.events],
            status: watch.status,
            mode: watch.mode,
            providersEnabled: [...watch.providersEnabled],
          },
        ],
        skipDuplicates: true,
      });
      return tx.watch.findUniqueOrThrow({ where: { id: watch.id } });
    });
    return created === 'over_cap' ? created : toRecord(created);
  }

  /** One page of an owner's watches, newest first, and whether more follow. */
  async page(owner: WatchOwner, after: WatchPosition | null, limit: number): Promise<KeysetPage<WatchRecord>> {
    const rows = await this.prisma.watch.findMany({
      where: {
        accountId: owner.accountId,
        mode: owner.mode,
        ...newestFirstAfter(after && { at: new Date(after.at), id: after.id }),
      },
      orderBy: NEWEST_FIRST,
      take: limit + 1,
    });
    return keysetPage(rows.map(toRecord), limit);
  }

  /** Deletes an owner's watch; false when it has no such watch. */
  async delete(owner: WatchOwner, id: string): Promise<boolean> {
    const { count } = await this.prisma.watch.deleteMany({
      where: { id, accountId: owner.accountId, mode: owner.mode },
    });
    return count > 0;
  }

  /**
   * Sets an owner's watch to `status` and reads it back; null when it has no such watch. A
   * resume stamps `active_since` with the database clock (as `created_at` is); setting the status
   * the watch already has changes nothing, so a repeated resume does not move `active_since`.
   */
  async setStatus(owner: WatchOwner, id: string, status: WatchStatus): Promise<WatchRecord | null> {
    const { accountId, mode } = owner;
    if (status === 'active') {
      await this.prisma
        .$executeRaw`UPDATE "watches" SET "status" = 'active', "active_since" = now() WHERE "id" = ${id} AND
          "account_id" = ${accountId} AND "mode" = ${mode}::key_mode AND "status" <> 'active'`;
    } else {
      await this.prisma.watch.updateMany({ where: { id, accountId, mode, status: { not: status } }, data: { status } });
    }
    const row = await this.prisma.watch.findFirst({ where: { id, accountId, mode } });
    return row ? toRecord(row) : null;
  }

  /** Every live watch (the matcher's index). */
  /** The watches of these ids, whatever their status or mode (an id of no watch has none). */
  async byIds(ids: readonly string[]): Promise<WatchRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.prisma.watch.findMany({ where: { id: { in: [...ids] } } });
    return rows.map(toRecord);
  }

  async allLive(): Promise<WatchRecord[]> {
    const rows = await this.prisma.watch.findMany({
      where: { status: 'active', mode: 'live' },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows.map(toRecord);
  }
}
