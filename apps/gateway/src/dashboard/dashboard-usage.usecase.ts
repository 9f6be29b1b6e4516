import { Injectable } from '@nestjs/common';
import type { DailyUsage } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';

/** Days of the chart, today included. */
export const USAGE_DAYS = 30;

/**
 * Credits per day (UTC) over the last USAGE_DAYS days, every day present (0 when nothing was
 * charged). A read of billing's ledger table, which only billing writes; the index on
 * (account_id, created_at) serves it.
 */
@Injectable()
export class DashboardUsageUseCase {
  constructor(private readonly prisma: PrismaService) {}

  async daily(accountId: string, now = new Date()): Promise<{ data: DailyUsage[] }> {
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const from = new Date(today - (USAGE_DAYS - 1) * 86_400_000);
    const rows = await this.prisma.$queryRaw<{ day: string; credits: bigint; entries: bigint }[]>`
      SELECT to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
             COALESCE(SUM(credits), 0)::bigint AS credits, COUNT(*)::bigint AS entries
        FROM ledger_entries
       WHERE account_id = ${accountId} AND created_at >= ${from}
       GROUP BY 1`;
    return { data: fillDays(from, USAGE_DAYS, rows) };
  }
}

/** Every day of the window in order, the days without a row at 0. */
export function fillDays(
  from: Date,
  days: number,
  rows: readonly { day: string; credits: bigint | number; entries: bigint | number }[],
): DailyUsage[] {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(from.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const row = byDay.get(day);
    return { day, credits: Number(row?.credits ?? 0), entries: Number(row?.entries ?? 0) };
  });
}
